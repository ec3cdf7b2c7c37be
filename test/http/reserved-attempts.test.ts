/**
 * Failed authentications per address counted in the shared buckets, on the test database's real
 * table: each ReservedAttempts is one process's view. The failures' buckets refill so slowly (a
 * token in 1,000 seconds) that no test depends on the clock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LimitBuckets } from '../../src/db/limit-buckets.ts';
import { ReservedAttempts } from '../../src/http/reserved-attempts.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(() => database.close());

let addresses = 0;
const newAddress = () => `failed:test:192.0.2.${++addresses}`;
const threeTries = { capacity: 3, rate: 0.001 };

/** A process's view of the failures, and how many statements it sent for them. */
function oneProcess() {
  const sent = { statements: 0 };
  const { take, giveBack } = database.db.limitBuckets;
  const buckets: Pick<LimitBuckets, 'take' | 'giveBack'> = {
    take: (...args) => (sent.statements++, take(...args)),
    giveBack: (...args) => (sent.statements++, giveBack(...args)),
  };
  return { attempts: new ReservedAttempts(buckets), sent };
}

/** One attempt from `address` that fails: 'tried' (answered 401), or 'refused' (429) before or after it was tried. */
async function fail(view: ReturnType<typeof oneProcess>, address: string) {
  const attempt = await view.attempts.attempt(address, threeTries);
  if (attempt.wait > 0) return 'refused before';
  return (await attempt.failed()) > 0 ? 'refused after' : 'tried';
}

describe('an address this process has not seen fail', () => {
  test('goes ahead without a statement; its failure is counted at once', async () => {
    const view = oneProcess();
    const attempt = await view.attempts.attempt(newAddress(), threeTries);
    assert.equal(attempt.wait, 0);
    await attempt.release();
    assert.equal(view.sent.statements, 0);
    assert.equal(await fail(view, newAddress()), 'tried');
    assert.equal(view.sent.statements, 1);
  });
});

describe('an address out of tries', () => {
  test('is refused before it is tried by the process that counted its failures', async () => {
    const view = oneProcess();
    const address = newAddress();
    assert.deepEqual(
      [await fail(view, address), await fail(view, address), await fail(view, address), await fail(view, address)],
      ['tried', 'tried', 'tried', 'refused before'],
    );
  });

  test('is refused by another process too: after its first failure there, then before trying', async () => {
    const [a, b] = [oneProcess(), oneProcess()];
    const address = newAddress();
    for (let i = 0; i < 3; i++) assert.equal(await fail(a, address), 'tried');
    assert.equal(await fail(b, address), 'refused after');
    assert.equal(await fail(b, address), 'refused before');
    const good = await b.attempts.attempt(address, threeTries);
    assert.ok(good.wait > 0, 'even an attempt that would succeed');
  });

  test('is refused without a statement until a try can be back', async () => {
    const view = oneProcess();
    const address = newAddress();
    for (let i = 0; i < 3; i++) await fail(view, address);
    const sent = view.sent.statements;
    for (let i = 0; i < 5; i++) assert.equal(await fail(view, address), 'refused before');
    assert.equal(view.sent.statements, sent);
  });

  test('failures spread over processes add up to one allowance', async () => {
    const [a, b] = [oneProcess(), oneProcess()];
    const address = newAddress();
    const outcomes = [];
    for (const view of [a, b, a, b, a, b]) outcomes.push(await fail(view, address));
    // b saw its failure at the second: it checks from then on.
    assert.deepEqual(outcomes, ['tried', 'tried', 'tried', 'refused before', 'refused before', 'refused before']);
  });
});

describe('an address seen failing', () => {
  test('has each attempt reserve a try, so attempts at the same moment never exceed what is left', async () => {
    const view = oneProcess();
    const address = newAddress();
    await fail(view, address);
    const attempts = await Promise.all(Array.from({ length: 6 }, () => view.attempts.attempt(address, threeTries)));
    assert.equal(attempts.filter((a) => a.wait === 0).length, 2);
  });

  test('gets back the try of an attempt that did not fail: its clients are not locked out by succeeding', async () => {
    const view = oneProcess();
    const address = newAddress();
    await fail(view, address);
    for (let i = 0; i < 10; i++) {
      const attempt = await view.attempts.attempt(address, threeTries);
      assert.equal(attempt.wait, 0, `attempt ${i + 1}`);
      await attempt.release();
    }
    assert.deepEqual([await fail(view, address), await fail(view, address), await fail(view, address)], ['tried', 'tried', 'refused before']);
  });
});
