/**
 * Gatehouse behind PgBouncer in transaction mode: the connection sees the pooler and stops
 * preparing statements (which the pooler's server connections would not keep), and migrations
 * take their lock in a transaction, which the pooler keeps on one server connection.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Connection } from '../../src/db/connection.ts';
import { loadMigrations, type Migration, migrate } from '../../src/db/migrator.ts';
import { openPostgresConnection } from '../../src/db/postgres-connection.ts';
import { skipWithoutDaemons } from '../helpers/daemons.ts';
import { type PgBouncer, startPgBouncer } from '../helpers/pgbouncer.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

describe('behind PgBouncer in transaction mode', { skip: skipWithoutDaemons('pgbouncer') }, () => {
  let database: TestDatabase;
  let pooler: PgBouncer;
  const opened: Connection[] = [];
  const open = async (url: string, prepareStatements?: boolean) => {
    const connection = await openPostgresConnection({ url, poolSize: 4, prepareStatements });
    opened.push(connection);
    return connection;
  };
  before(async () => {
    database = await openTestDatabase();
    // One server connection: every client's transactions take turns on it, as under load.
    pooler = await startPgBouncer([database.url as string], { poolSize: 1 });
  });
  after(async () => {
    for (const connection of opened) await connection.close();
    await pooler?.stop();
    await database?.close();
  });

  test('a connection through the pooler prepares no statements unless told to; one straight to PostgreSQL does', async () => {
    assert.equal((await open(pooler.through(database.url as string))).preparesNamedStatements, false);
    assert.equal((await open(pooler.through(database.url as string), true)).preparesNamedStatements, true, 'DATABASE_PREPARE_STATEMENTS=true is obeyed');
    assert.equal((await open(database.url as string)).preparesNamedStatements, true);
  });

  test('migrations run concurrently through the pooler apply each file once, in order, and leave no lock held', async () => {
    const fixture = (version: number, sql: string): Migration => ({ version, name: `f${version}`, sql, checksum: sql, file: `/fixtures/${version}_f.sql` });
    const set = [
      ...loadMigrations(),
      fixture(9101, 'CREATE TABLE pooled_a (id int)'),
      fixture(9102, 'ALTER TABLE pooled_a ADD COLUMN b int'),
      fixture(9103, 'CREATE TABLE pooled_c (id int)'),
    ];
    const through = pooler.through(database.url as string);
    const runs = await Promise.all([migrate(await open(through), set), migrate(await open(through), set), migrate(await open(through), set)]);
    assert.deepEqual(runs.flatMap((run) => run.applied.map((m) => m.version)).sort(), [9101, 9102, 9103]);
    for (const run of runs) assert.deepEqual(run.pending, []);
    const recorded = await database.owner<{ version: number }>('SELECT version FROM gatehouse_migrations WHERE version > 9000 ORDER BY applied_at, version');
    assert.deepEqual(
      recorded.map((r) => r.version),
      [9101, 9102, 9103],
    );
    const held = await database.owner<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_locks JOIN pg_database d ON d.oid = pg_locks.database WHERE locktype = 'advisory' AND d.datname = current_database()",
    );
    assert.equal(held[0]?.n, 0, 'no server connection is left holding the migration lock');
  });
});
