/**
 * The US Eastern date of an instant, across midnight and the daylight-saving changes, asked in
 * any order (the answer is remembered for a minute and must never leak into another minute).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { easternDate } from '../src/eastern-date.ts';

test('the Washington date of an instant, whatever was asked before', () => {
  const cases: [string, string][] = [
    ['2026-11-10T04:59:59Z', '2026-11-09'], // 23:59:59 EST on the 9th
    ['2026-11-10T05:00:00Z', '2026-11-10'], // midnight EST
    ['2026-11-10T04:59:30Z', '2026-11-09'], // the same minute as the first, asked again after another
    ['2026-07-01T03:59:00Z', '2026-06-30'], // 23:59 EDT
    ['2026-07-01T04:00:00Z', '2026-07-01'],
    ['2026-03-08T06:59:00Z', '2026-03-08'], // the spring change: 01:59 EST → 03:00 EDT
    ['2026-11-01T04:30:00Z', '2026-11-01'], // 00:30 EDT on the autumn change day
  ];
  for (const [instant, date] of [...cases, ...cases.slice().reverse()]) assert.equal(easternDate(new Date(instant)), date, instant);
});
