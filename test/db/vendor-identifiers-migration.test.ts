/**
 * Migration 0039: the vendor identifiers stored as an object ({duns, uei, cage, lei}) before
 * identifiers were typed become the list every screened subject carries, and only a list is
 * accepted after it. Run on a migrated database whose check is lifted, with rows stored the old way.
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

const migration = loadMigrations().find((m) => m.version === 39) as Migration;
const ORG = 'org_0000000000000000000000test';

test('stored vendor identifiers become a list of typed identifiers, and nothing else is accepted after', async () => {
  await database.owner('ALTER TABLE vendors DROP CONSTRAINT vendors_identifiers_is_a_list');
  await database.owner('INSERT INTO organizations (id, name) VALUES ($1, $2)', [ORG, 'Migration test']);
  const insert = (id: string, identifiers: unknown) =>
    database.owner(
      "INSERT INTO vendors (organization_id, id, name, identifiers, latest_screening_id) VALUES ($1, $2, 'Vendor', $3, 'scr_00000000000000000000000000')",
      [ORG, id, JSON.stringify(identifiers)],
    );
  await insert('ven_0000000000000000000000000a', { duns: '123456789', lei: '253400V1H6ART1UQ0N98', cage: '1A2B3' });
  await insert('ven_0000000000000000000000000b', {});
  await insert('ven_0000000000000000000000000c', [{ type: 'tax_id', value: '7702070139' }]);

  await database.connection.withSession(async (session) => {
    await session.exec('BEGIN');
    await session.exec(migration.sql);
    await session.exec('COMMIT');
  });

  const rows = await database.owner<{ id: string; identifiers: unknown }>('SELECT id, identifiers FROM vendors WHERE organization_id = $1 ORDER BY id', [ORG]);
  assert.deepEqual(
    rows.map((r) => r.identifiers),
    [
      [
        { type: 'other', value: '1A2B3' },
        { type: 'registration', value: '123456789' },
        { type: 'lei', value: '253400V1H6ART1UQ0N98' },
      ],
      [],
      [{ type: 'tax_id', value: '7702070139' }],
    ],
  );
  await assert.rejects(insert('ven_0000000000000000000000000d', { duns: '123456789' }), /vendors_identifiers_is_a_list/);
});
