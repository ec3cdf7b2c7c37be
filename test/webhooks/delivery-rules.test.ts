/**
 * The pure rules behind delivery and receipt: the retry schedule, Retry-After, key paths of a
 * payload, and sealed secrets.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { KEY_PATH_DEPTH, MAX_KEY_PATHS, payloadKeyPaths } from '../../src/webhooks/payload-keys.ts';
import { nextAttemptDelayMs, parseRetryAfter, RETRY_SCHEDULE_SECONDS } from '../../src/webhooks/retry-schedule.ts';
import { SecretBox } from '../../src/webhooks/secret-box.ts';

describe('the retry schedule', () => {
  test('is 0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, each within ±10 %, then exhausted', () => {
    assert.deepEqual([...RETRY_SCHEDULE_SECONDS], [0, 5, 300, 1800, 7200, 18000, 36000, 36000]);
    for (let failed = 1; failed < RETRY_SCHEDULE_SECONDS.length; failed++) {
      const planned = (RETRY_SCHEDULE_SECONDS[failed] as number) * 1000;
      assert.equal(nextAttemptDelayMs(failed, { random: () => 0 }), Math.round(planned * 0.9));
      assert.equal(nextAttemptDelayMs(failed, { random: () => 0.5 }), planned);
      assert.ok((nextAttemptDelayMs(failed, { random: Math.random }) as number) <= planned * 1.1);
    }
    assert.equal(nextAttemptDelayMs(8, { random: () => 0.5 }), undefined, 'eight attempts, then the round is spent');
  });

  test('never retries sooner than Retry-After asked (up to a day)', () => {
    assert.equal(nextAttemptDelayMs(1, { retryAfterMs: 120_000, random: () => 0.5 }), 120_000);
    assert.equal(nextAttemptDelayMs(2, { retryAfterMs: 1_000, random: () => 0.5 }), 300_000);
    assert.equal(nextAttemptDelayMs(1, { retryAfterMs: 10 * 86_400_000, random: () => 0.5 }), 86_400_000);
  });

  test('Retry-After is read as seconds or as an HTTP date', () => {
    const now = new Date('2026-11-20T10:00:00Z');
    assert.equal(parseRetryAfter('120', now), 120_000);
    assert.equal(parseRetryAfter('Fri, 20 Nov 2026 10:01:30 GMT', now), 90_000);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });
});

describe('payload key paths', () => {
  test('list nested keys and keys inside arrays, and no value', () => {
    const payload = { visitor: { name: 'Jane Roe', documents: [{ type: 'passport', number: 'X123' }, { expires: '2030' }] }, tags: ['vip'], at: 1 };
    const { paths, truncated } = payloadKeyPaths(payload);
    assert.deepEqual(paths, [
      'at',
      'tags',
      'visitor',
      'visitor.documents',
      'visitor.documents[].expires',
      'visitor.documents[].number',
      'visitor.documents[].type',
      'visitor.name',
    ]);
    assert.equal(truncated, false);
    assert.doesNotMatch(JSON.stringify(paths), /Jane|passport|X123|2030|vip/);
  });

  test(`stop at ${KEY_PATH_DEPTH} levels and ${MAX_KEY_PATHS} paths, and say so`, () => {
    const deep = { a: { b: { c: { d: { e: { f: { g: 1 } } } } } } };
    const { paths, truncated } = payloadKeyPaths(deep);
    assert.deepEqual(paths, ['a', 'a.b', 'a.b.c', 'a.b.c.d', 'a.b.c.d.e']);
    assert.equal(truncated, true);
    const wide = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i]));
    assert.equal(payloadKeyPaths(wide).paths.length, MAX_KEY_PATHS);
    assert.equal(payloadKeyPaths(wide).truncated, true);
  });
});

describe('sealed secrets', () => {
  const key = () => randomBytes(32);

  test('open with the same context only', () => {
    const box = new SecretBox([key()]);
    const sealed = box.seal('whsec_abc', 'webhook_endpoint:org_1:we_1');
    assert.doesNotMatch(sealed, /abc/);
    assert.equal(box.open(sealed, 'webhook_endpoint:org_1:we_1'), 'whsec_abc');
    assert.throws(() => box.open(sealed, 'webhook_endpoint:org_1:we_2'));
  });

  test('the first key seals and every key opens, so keys can be rotated', () => {
    const [oldKey, newKey] = [key(), key()];
    const sealedBefore = new SecretBox([oldKey]).seal('whsec_old', 'c');
    const rotated = new SecretBox([newKey, oldKey]);
    assert.equal(rotated.open(sealedBefore, 'c'), 'whsec_old');
    assert.equal(new SecretBox([newKey]).open(rotated.seal('whsec_new', 'c'), 'c'), 'whsec_new');
    assert.throws(() => new SecretBox([newKey]).open(sealedBefore, 'c'), /not configured/);
  });
});
