/**
 * The determinations a list version touches are found however many parties share a word with its
 * entries: the candidates are read and screened a page at a time (a word common in a book of
 * suppliers is carried by thousands of parties), and a name decided on one page still touches the
 * determinations that carry it on a later one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { touchedChecks, versionChanges } from '../../../src/features/ownership/touched-checks.ts';
import type { FreshnessReport } from '../../../src/lists/freshness.ts';
import { importList } from '../../../src/lists/list-import.ts';
import { buildScreeningIndex } from '../../../src/screening/screening-index.ts';
import { createOrganization } from '../../helpers/credentials.ts';
import { openTestDatabase } from '../../helpers/test-database.ts';
import { SDN_ROWS, sdnList } from '../../helpers/test-lists.ts';

const PARTIES = 2_500;
const LISTED_AT = [40, 2_300];
const checkId = (i: number) => `own_t${String(i).padStart(5, '0')}`;
const FRESH: FreshnessReport = { lists: [], sources: [], degraded: false, problems: [] };

test('thousands of parties sharing a word with an added entry: every determination whose name matches it is touched, on any page, and no other', async () => {
  const database = await openTestDatabase();
  try {
    const organizationId = await createOrganization(database.owner);
    // The first version without NORTHWIND MARITIME LLC; the second lists it and edits Volkov's remarks.
    const [karim, volkov, northwind] = SDN_ROWS as [string, string, string];
    await importList(database.db.lists, sdnList([karim, volkov]));
    const next = await importList(database.db.lists, sdnList([karim, volkov.replace('nationality Russia.', 'nationality Russia; amended.'), northwind]));
    assert.equal(next.status, 'imported');
    if (next.status !== 'imported') return;
    const changes = await versionChanges(database.db.lists, next.version, buildScreeningIndex(sdnList().entities).rarity());
    assert.deepEqual(changes.entryKeys, ['entry:OFAC_SDN:20001']);
    assert.ok(changes.wordKeys.includes('word:northwind'), changes.wordKeys.join(', '));

    // Parties named Northwind across pages of a thousand; the listed company's name among them twice, pages apart.
    await database.owner(
      `INSERT INTO ownership_check_parties (organization_id, key, check_id, names)
       SELECT $1, 'word:northwind', 'own_t' || lpad(i::text, 5, '0'),
              jsonb_build_array(jsonb_build_object('name', CASE WHEN i = ANY($2::int[]) THEN 'Northwind Maritime LLC' ELSE 'Northwind Bakery ' || i END, 'kind', 'organization'))
       FROM generate_series(0, $3 - 1) AS i`,
      [organizationId, LISTED_AT, PARTIES],
    );
    // A determination that counted the entry the version changed.
    await database.owner(
      `INSERT INTO ownership_check_parties (organization_id, key, check_id, names) VALUES ($1, 'entry:OFAC_SDN:20001', 'own_counted', '[]')`,
      [organizationId],
    );

    const touched = await database.db.withTenant({ organizationId, kind: 'system', id: 'test' }, (trx) =>
      touchedChecks(trx, changes, { threshold: 0.85, freshness: FRESH, now: new Date() }),
    );
    assert.deepEqual(touched, ['own_counted', ...LISTED_AT.map(checkId)].sort());
  } finally {
    await database.close();
  }
});
