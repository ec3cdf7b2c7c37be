/**
 * Gatehouse behind PgBouncer in transaction mode: the connection sees the pooler and stops
 * preparing statements (which the pooler's server connections would not keep), and migrations
 * take their lock in a transaction, which the pooler keeps on one server connection.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Connection } from '../../src/db/connection.ts';
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
});
