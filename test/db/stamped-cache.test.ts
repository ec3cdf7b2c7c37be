/**
 * The per-organization cache keyed by the settings stamp that each tenant transaction reads in
 * its first statement: what it answers without reading, and when it reads again.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type StampedCacheOptions, stampedCache } from '../../src/db/stamped-cache.ts';
import { createOrganization } from '../helpers/credentials.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(() => database.close());

type Value = { read: number; nested: { list: number[] } };

function counting(options?: StampedCacheOptions<Value>) {
  let reads = 0;
  const cache = stampedCache(async () => ({ read: ++reads, nested: { list: [1] } }), options);
  const get = (organizationId: string) => database.db.withTenant({ organizationId, kind: 'system', id: 'test' }, (trx) => cache(trx));
  return { get, reads: () => reads };
}

/** What the trigger on a cached table does when that table changes. */
const moveStamp = (organizationId: string) =>
  database.owner(
    `INSERT INTO settings_stamps AS s (organization_id, stamp) VALUES ($1, 1)
     ON CONFLICT (organization_id) DO UPDATE SET stamp = s.stamp + 1`,
    [organizationId],
  );

test('a transaction that brings the stamp a value was read under gets it without reading; a moved stamp reads again', async () => {
  const org = await createOrganization(database.owner);
  const { get, reads } = counting();
  assert.equal((await get(org)).read, 1);
  assert.equal((await get(org)).read, 1);
  assert.equal(reads(), 1);
  await moveStamp(org);
  assert.equal((await get(org)).read, 2);
  assert.equal((await get(org)).read, 2);
  await moveStamp(org);
  assert.equal((await get(org)).read, 3);
});

test('each organization keeps its own value, and a move of one stamp leaves the others kept', async () => {
  const [a, b] = [await createOrganization(database.owner), await createOrganization(database.owner)];
  const { get } = counting();
  assert.equal((await get(a)).read, 1);
  assert.equal((await get(b)).read, 2);
  await moveStamp(b);
  assert.equal((await get(a)).read, 1);
  assert.equal((await get(b)).read, 3);
});

test('kept values weigh no more than the limit together: the one unused the longest goes first, one heavier alone is not kept', async () => {
  const [a, b, c] = [await createOrganization(database.owner), await createOrganization(database.owner), await createOrganization(database.owner)];
  const { get, reads } = counting({ maxWeight: 2 });
  await get(a);
  await get(b);
  await get(a); // b is now the one unused the longest
  await get(c);
  assert.equal(reads(), 3);
  await get(a);
  await get(c);
  assert.equal(reads(), 3, 'a and c still kept');
  await get(b);
  assert.equal(reads(), 4, 'b was dropped for c');

  const heavy = counting({ weigh: () => 3, maxWeight: 2 });
  await heavy.get(a);
  await heavy.get(a);
  assert.equal(heavy.reads(), 2);
});

test('a kept value is shared, so it cannot be changed by one of its users', async () => {
  const org = await createOrganization(database.owner);
  const { get } = counting();
  const value = await get(org);
  assert.throws(() => {
    value.nested.list.push(2);
  }, TypeError);
});

test('the runtime role cannot move a stamp itself: only the triggers on the cached tables do', async () => {
  const org = await createOrganization(database.owner);
  await moveStamp(org);
  await assert.rejects(
    database.db.withTenant({ organizationId: org, kind: 'system', id: 'test' }, async (trx) => {
      await trx
        .updateTable('settings_stamps' as never)
        .set({ stamp: 0 } as never)
        .execute();
    }),
    /permission denied/,
  );
});
