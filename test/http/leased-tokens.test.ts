/**
 * Credentials' requests counted through leases of the shared buckets, on the test database's
 * real table: each LeasedTokens is one process's view. Buckets refill so slowly (a token in 1,000
 * seconds) that no test depends on the clock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LimitBuckets } from '../../src/db/limit-buckets.ts';
import { LeasedTokens, leaseSize } from '../../src/http/leased-tokens.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(() => database.close());

let keys = 0;
const newKey = () => `credential:test-${++keys}`;
const slow = (capacity: number) => ({ capacity, rate: 0.001 });

/** A process's leases over the shared table, and how many takes it sent there. */
function oneProcess() {
  const sent = { takes: 0 };
  const buckets: Pick<LimitBuckets, 'take'> = {
    take: (...args) => {
      sent.takes++;
      return database.db.limitBuckets.take(...args);
    },
  };
  return { leases: new LeasedTokens(buckets), sent };
}

describe('a lease', () => {
  test('is a twentieth of the bucket, and at least one token', () => {
    assert.equal(leaseSize(slow(100)), 5);
    assert.equal(leaseSize(slow(4)), 1);
  });

  test("serves that many of a credential's requests from one take", async () => {
    const { leases, sent } = oneProcess();
    const key = newKey();
    for (let i = 0; i < 12; i++) assert.equal((await leases.take(key, slow(100))).allowed, true);
    assert.equal(sent.takes, 3, '5 + 5 + 2 of the third lease');
  });

  test('requests that find it spent together wait for one renewal', async () => {
    const { leases, sent } = oneProcess();
    const key = newKey();
    const taken = await Promise.all(Array.from({ length: 5 }, () => leases.take(key, slow(100))));
    assert.deepEqual(
      taken.map((t) => t.allowed),
      [true, true, true, true, true],
    );
    assert.equal(sent.takes, 1);
  });

  test('reports what remains as this process knows it, and the policy headers’ times', async () => {
    const { leases } = oneProcess();
    const key = newKey();
    const first = await leases.take(key, slow(100));
    assert.deepEqual([first.remaining, first.retryAfterSeconds], [99, 0], '95 in the bucket and 4 in the lease');
    assert.equal(first.fullInSeconds, 1000);
  });
});

describe('processes sharing one bucket', () => {
  test('give a credential the bucket once, not once each', async () => {
    const [a, b] = [oneProcess(), oneProcess()];
    const key = newKey();
    const bucket = slow(40); // leases of 2
    let allowed = 0;
    for (let i = 0; i < 60; i++) if ((await (i % 2 === 0 ? a : b).leases.take(key, bucket)).allowed) allowed++;
    assert.equal(allowed, 40);
  });

  test('a refusal says when a token will be back', async () => {
    const { leases } = oneProcess();
    const key = newKey();
    const bucket = { capacity: 2, rate: 0.5 };
    await leases.take(key, bucket);
    await leases.take(key, bucket);
    const refused = await leases.take(key, bucket);
    assert.equal(refused.allowed, false);
    assert.ok(refused.retryAfterSeconds >= 1 && refused.retryAfterSeconds <= 2, String(refused.retryAfterSeconds));
  });

  test('a process that found the bucket empty refuses by itself until a token can be back: no statement a request', async () => {
    const { leases, sent } = oneProcess();
    const key = newKey();
    const answers = [];
    for (let i = 0; i < 8; i++) answers.push((await leases.take(key, slow(2))).allowed);
    assert.deepEqual(answers, [true, true, false, false, false, false, false, false]);
    assert.equal(sent.takes, 2, 'the second take left the bucket empty, and the process knows it');
  });

  test('a small bucket is leased a token at a time: exact, whichever process serves', async () => {
    const [a, b] = [oneProcess(), oneProcess()];
    const key = newKey();
    const bucket = slow(4);
    const answers = [];
    for (const p of [a, b, a, b, a, b]) answers.push((await p.leases.take(key, bucket)).allowed);
    assert.deepEqual(answers, [true, true, true, true, false, false]);
    assert.equal(a.sent.takes + b.sent.takes, 5, "a take each, but b's last: its take had left the bucket empty");
  });
});
