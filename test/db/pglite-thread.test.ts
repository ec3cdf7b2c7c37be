/**
 * The embedded database in its own thread answers as PGlite does in the caller's: rows with their
 * types (bytea, jsonb, timestamptz), scripts, and errors with PostgreSQL's fields intact, which
 * callers and tests read (a unique violation's code and constraint).
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type PgliteLike, startPgliteThread } from '../../src/db/pglite-thread.ts';

let pglite: PgliteLike;
before(async () => {
  pglite = await startPgliteThread(undefined);
});
after(async () => {
  await pglite.close();
});

test('rows come back typed as PGlite types them, parameters go in as given', async () => {
  await pglite.exec('CREATE TABLE t (id text PRIMARY KEY, hash bytea, doc jsonb, at timestamptz); CREATE INDEX t_at ON t (at);');
  const at = new Date('2026-11-23T04:00:00.123Z');
  const inserted = await pglite.query('INSERT INTO t VALUES ($1, $2, $3, $4), ($5, $2, $3, $4)', ['a', Buffer.from([1, 2, 255]), JSON.stringify({ name: 'Ана' }), at, 'b']);
  assert.equal(inserted.affectedRows, 2);
  const { rows } = await pglite.query<{ id: string; hash: Uint8Array; doc: { name: string }; at: Date }>('SELECT * FROM t WHERE id = $1', ['a']);
  assert.deepEqual([...(rows[0]?.hash ?? [])], [1, 2, 255]);
  assert.deepEqual(rows[0]?.doc, { name: 'Ана' });
  assert.equal(rows[0]?.at.toISOString(), at.toISOString());
});

test("an error keeps PostgreSQL's code and constraint, and the thread goes on answering", async () => {
  await pglite.exec('CREATE TABLE u (id int PRIMARY KEY)');
  await pglite.query('INSERT INTO u VALUES (1)');
  await assert.rejects(pglite.query('INSERT INTO u VALUES (1)'), (error: Error & { code?: string; constraint?: string }) => {
    assert.equal(error.code, '23505');
    assert.equal(error.constraint, 'u_pkey');
    assert.match(error.message, /duplicate key/);
    return true;
  });
  assert.deepEqual((await pglite.query('SELECT count(*)::int AS n FROM u')).rows, [{ n: 1 }]);
});

test('statements sent together are answered each with its own result', async () => {
  const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => pglite.query<{ n: number }>('SELECT $1::int AS n', [i])));
  assert.deepEqual(
    answers.map((a) => a.rows[0]?.n),
    Array.from({ length: 50 }, (_, i) => i),
  );
});
