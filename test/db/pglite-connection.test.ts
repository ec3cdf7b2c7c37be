import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Connection } from '../../src/db/connection.ts';
import { openPgliteConnection } from '../../src/db/pglite-connection.ts';
import { countTurns } from '../helpers/event-loop-turns.ts';

// The embedded database runs on the service's own thread: how it shares that thread with requests.
describe('the embedded database', () => {
  let connection: Connection;
  before(async () => {
    connection = await openPgliteConnection(undefined);
  });
  after(async () => {
    await connection.close();
  });

  test('creates a new WAL segment without writing it through with zeros first', async () => {
    const { rows } = await sql<{ wal_init_zero: string }>`SHOW wal_init_zero`.execute(connection.kysely);
    assert.equal(rows[0]?.wal_init_zero, 'off');
  });

  test('lets the event loop turn between the statements of a chain, as a socket would', async () => {
    const counter = countTurns();
    const statements = 20;
    for (let i = 0; i < statements; i++) await sql`SELECT ${i}::int AS i`.execute(connection.kysely);
    const turns = counter.stop();
    // Without a turn per statement, a chain settles entirely in microtasks and no immediate runs during it.
    assert.ok(turns >= statements - 1, `${turns} turns of the event loop during ${statements} chained statements`);
  });
});
