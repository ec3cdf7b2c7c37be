import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TokenBuckets } from '../../src/http/token-bucket.ts';

const clock = () => {
  let t = 0;
  return { now: () => t, advance: (s: number) => (t += s) };
};

test('a burst up to capacity is allowed, then one request per refill', () => {
  const time = clock();
  const buckets = new TokenBuckets(10, time.now);
  const bucket = { capacity: 3, rate: 1 };
  assert.deepEqual(
    [1, 2, 3].map(() => buckets.take('k', bucket).allowed),
    [true, true, true],
  );
  const refused = buckets.take('k', bucket);
  assert.deepEqual([refused.allowed, refused.remaining, refused.retryAfterSeconds], [false, 0, 1]);
  time.advance(1);
  assert.equal(buckets.take('k', bucket).allowed, true);
  time.advance(100);
  assert.equal(buckets.take('k', bucket).remaining, 2, 'refills to capacity, no further');
});

test('keys are independent, and memory is bounded by forgetting the least recent', () => {
  const time = clock();
  const buckets = new TokenBuckets(2, time.now);
  const bucket = { capacity: 1, rate: 0.001 };
  buckets.take('a', bucket);
  buckets.take('b', bucket);
  assert.equal(buckets.take('b', bucket).allowed, false);
  buckets.take('c', bucket); // pushes out 'a'
  assert.equal(buckets.waitFor('a', bucket), 0, 'a forgotten key starts full');
  assert.equal(buckets.waitFor('b', bucket), 1000, 'one token at 0.001 a second');
});
