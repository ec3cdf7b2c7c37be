/**
 * Migration 0043: inbound webhook receipts stored before personal member names were written
 * `<key>` lose every key path that holds such a name, and say their shape is truncated; receipts
 * whose paths were field names only are left as they were.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { loadMigrations, type Migration } from '../../src/db/migrator.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(() => database.close());

const migration = loadMigrations().find((m) => m.version === 43) as Migration;
const ORG = 'org_0000000000000000000000test';

test('stored key paths holding personal member names are dropped, and the receipt says its shape is truncated', async () => {
  await database.owner('INSERT INTO organizations (id, name) VALUES ($1, $2)', [ORG, 'Migration test']);
  const insert = (id: string, paths: string[]) =>
    database.owner(
      "INSERT INTO inbound_webhook_receipts (organization_id, id, kind, key_paths, key_paths_truncated, signed, request_id) VALUES ($1, $2, 'visitor_checked_in', $3, false, false, 'req_test')",
      [ORG, id, paths],
    );
  await insert('iwh_0000000000000000000000000a', [
    'attendees',
    'attendees.jane.doe@example.com',
    'attendees.jane.doe@example.com.status',
    'attendees.Jane Doe',
    'attendees.+15551234567',
  ]);
  await insert('iwh_0000000000000000000000000b', ['visitor', 'visitor.documents[]', 'visitor.documents[].type', 'visitor.name']);

  await database.connection.withSession(async (session) => {
    await session.exec('BEGIN');
    await session.exec(migration.sql);
    await session.exec('COMMIT');
  });

  const rows = await database.owner<{ id: string; key_paths: string[]; key_paths_truncated: boolean }>(
    'SELECT id, key_paths, key_paths_truncated FROM inbound_webhook_receipts WHERE organization_id = $1 ORDER BY id',
    [ORG],
  );
  assert.deepEqual(rows, [
    { id: 'iwh_0000000000000000000000000a', key_paths: ['attendees'], key_paths_truncated: true },
    {
      id: 'iwh_0000000000000000000000000b',
      key_paths: ['visitor', 'visitor.documents[]', 'visitor.documents[].type', 'visitor.name'],
      key_paths_truncated: false,
    },
  ]);
  const [forced] = await database.owner<{ relforcerowsecurity: boolean }>(
    "SELECT relforcerowsecurity FROM pg_class WHERE relname = 'inbound_webhook_receipts'",
  );
  assert.equal(forced?.relforcerowsecurity, true, 'row-level security binds the owner again');
});
