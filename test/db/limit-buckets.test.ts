/**
 * The shared token buckets in SQL (0052_limit_buckets.sql): what one take grants and leaves, that
 * takes at the same moment from many connections never grant more than the bucket holds, giving a
 * token back, and sweeping only what is full again. Buckets here refill so slowly (a token in
 * 1,000 seconds) that no test depends on the clock.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(() => database.close());

const slow = (capacity: number) => ({ capacity, rate: 0.001 });
let keys = 0;
const newKey = () => `test:${++keys}`;
const tokensOf = async (key: string) => (await database.owner<{ tokens: number }>('SELECT tokens FROM limit_buckets WHERE key = $1', [key]))[0]?.tokens;

describe('a take', () => {
  test('from a new bucket finds it full, and grants what was wanted', async () => {
    const key = newKey();
    assert.deepEqual(await database.db.limitBuckets.take(key, slow(10), 4), { granted: 4, tokens: 6 });
    const second = await database.db.limitBuckets.take(key, slow(10), 4);
    assert.deepEqual([second.granted, Math.floor(second.tokens)], [4, 2], 'less a whisker of refill');
  });

  test('grants the whole tokens left when fewer than wanted, and none below one, leaving the bucket as it was', async () => {
    const key = newKey();
    const { take } = database.db.limitBuckets;
    await take(key, slow(3), 2);
    const last = await take(key, slow(3), 2);
    assert.equal(last.granted, 1);
    const refused = await take(key, slow(3), 2);
    assert.equal(refused.granted, 0);
    assert.ok(refused.tokens < 1 && refused.tokens >= last.tokens, `nothing taken: ${last.tokens} then ${refused.tokens}`);
  });

  test('never grants more than a full bucket, nor more than it holds however many ask at once', async () => {
    const key = newKey();
    assert.equal((await database.db.limitBuckets.take(key, slow(5), 8)).granted, 5);
    const crowded = newKey();
    const takes = await Promise.all(Array.from({ length: 20 }, () => database.db.limitBuckets.take(crowded, slow(5), 1)));
    assert.equal(
      takes.reduce((sum, take) => sum + take.granted, 0),
      5,
    );
  });

  test('follows the bucket its caller describes now (a changed setting)', async () => {
    const key = newKey();
    await database.db.limitBuckets.take(key, slow(2), 2);
    const [row] = await database.owner<{ capacity: number; rate: number }>('SELECT capacity, rate FROM limit_buckets WHERE key = $1', [key]);
    assert.deepEqual(row, { capacity: 2, rate: 0.001 });
    assert.equal((await database.db.limitBuckets.take(key, { capacity: 50, rate: 0.001 }, 1)).granted, 0, 'not refilled by the change');
    const [changed] = await database.owner<{ capacity: number }>('SELECT capacity FROM limit_buckets WHERE key = $1', [key]);
    assert.equal(changed?.capacity, 50);
  });
});

describe('giving back', () => {
  test('puts one token back, never past the capacity', async () => {
    const key = newKey();
    await database.db.limitBuckets.take(key, slow(2), 1);
    assert.ok(Math.abs(((await database.db.limitBuckets.giveBack(key)) ?? 0) - 2) < 0.01);
    assert.ok(((await database.db.limitBuckets.giveBack(key)) ?? 0) <= 2);
    assert.equal(await database.db.limitBuckets.giveBack(newKey()), undefined, 'a bucket there is no row for is full');
  });
});

describe('sweeping', () => {
  test('forgets the buckets that are full again, and only those', async () => {
    const full = newKey();
    const emptying = newKey();
    await database.db.limitBuckets.take(full, slow(1), 1);
    await database.db.limitBuckets.take(emptying, slow(1), 1);
    // A thousand seconds on: `full` has refilled its one token.
    await database.owner(`UPDATE limit_buckets SET at = at - interval '1001 seconds' WHERE key = $1`, [full]);
    assert.ok((await database.db.limitBuckets.sweep()) >= 1);
    assert.equal(await tokensOf(full), undefined);
    assert.notEqual(await tokensOf(emptying), undefined);
    assert.equal((await database.db.limitBuckets.take(full, slow(1), 1)).granted, 1, 'a swept bucket starts full, as it was');
  });
});

describe('the table', () => {
  test('is unlogged, and out of the runtime role’s reach', async () => {
    const [table] = await database.owner<{ persistence: string; runtime: boolean; everyone: boolean }>(
      `SELECT relpersistence AS persistence,
              has_table_privilege('gatehouse_runtime', oid, 'SELECT, INSERT, UPDATE, DELETE') AS runtime,
              EXISTS (SELECT 1 FROM aclexplode(coalesce(relacl, acldefault('r', relowner))) WHERE grantee = 0) AS everyone
         FROM pg_class WHERE oid = 'limit_buckets'::regclass`,
    );
    assert.deepEqual(table, { persistence: 'u', runtime: false, everyone: false });
  });

  // On Citus every request's limit would otherwise be a two-phase commit to every node (src/db/citus.ts).
  test('on Citus, stays an ordinary table on the coordinator, neither distributed nor replicated', async (t) => {
    const [citus] = await database.owner<{ present: boolean }>("SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus') AS present");
    if (!citus?.present) return t.skip('not a Citus database');
    const placed = await database.owner<{ table: string }>(
      "SELECT logicalrelid::text AS table FROM pg_dist_partition WHERE logicalrelid IN ('limit_buckets'::regclass, 'organizations'::regclass)",
    );
    assert.deepEqual(placed, [{ table: 'organizations' }], 'the tables beside it are placed');
    const key = newKey();
    assert.deepEqual(await database.db.limitBuckets.take(key, slow(3), 2), { granted: 2, tokens: 1 });
    assert.equal(await tokensOf(key), 1);
  });
});
