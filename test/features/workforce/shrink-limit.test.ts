/**
 * How many profiles one full workforce sync may deactivate: the configured share of the active
 * profiles, at least a small number, never all of them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/config.ts';
import { deactivationLimit, SHRINK_MIN_DEACTIVATIONS } from '../../../src/features/workforce/shrink-guard.ts';

test('the limit is the share of the active profiles, at least the minimum, never all of them', () => {
  assert.equal(SHRINK_MIN_DEACTIVATIONS, 5);
  const cases: [active: number, percent: number, limit: number][] = [
    [300, 10, 30],
    [60, 10, 6],
    [59, 10, 5], // 5.9 rounds down, and the minimum is 5 anyway
    [30, 10, 5],
    [6, 10, 5],
    [3, 10, 2],
    [1, 10, 0],
    [0, 10, 0],
    [300, 25, 75],
    [300, 100, 299],
    [300, 0, 5],
  ];
  for (const [active, percent, limit] of cases) assert.equal(deactivationLimit(active, percent), limit, `${active} active at ${percent}%`);
});

test('WORKFORCE_SHRINK_LIMIT_PERCENT: 10 by default, 0 to 100, a bad value named', () => {
  assert.equal(loadConfig({}).workforceShrinkLimitPercent, 10);
  assert.equal(loadConfig({ WORKFORCE_SHRINK_LIMIT_PERCENT: '25' }).workforceShrinkLimitPercent, 25);
  assert.throws(
    () => loadConfig({ WORKFORCE_SHRINK_LIMIT_PERCENT: '150' }),
    (e: Error) => e instanceof ConfigError && /WORKFORCE_SHRINK_LIMIT_PERCENT must be an integer from 0 to 100/.test(e.message),
  );
});
