/**
 * The import / version / diff cycle on the real SDN files a year apart (2023-05-02 then
 * 2024-05-03): counts, the difference checked against an independent computation, a re-import
 * that changes nothing, the shrink refusal, and the runtime role's read-only access.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { canonicalJson } from '../../src/canonical-json.ts';
import { importList, type ListToImport } from '../../src/lists/list-import.ts';
import { parseOfacLegacy } from '../../src/screening/lists/ofac-legacy.ts';
import type { ListEntity } from '../../src/screening/model.ts';
import { readListFile, skipWithoutListData } from '../helpers/list-data.ts';
import { expectedDiff } from '../helpers/list-diff.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

const sdn = (relative: string, publishedAt: string): ListToImport => ({
  list: 'OFAC_SDN',
  format: 'ofac_legacy',
  files: [relative],
  sourceSha256: 'a'.repeat(64),
  publishedAt,
  entities: parseOfacLegacy('OFAC_SDN', { main: readListFile(relative) }).entities,
  warnings: [],
});

describe('list versions on the real SDN files', { skip: skipWithoutListData() }, () => {
  let database: TestDatabase;
  let older: ListToImport;
  let newer: ListToImport;
  before(async () => {
    database = await openTestDatabase();
    older = sdn('ofac_sdn_2024-05/history/2023-05-02/sdn.csv', '2023-05-02');
    newer = sdn('ofac_sdn_2024-05/sdn.csv', '2024-05-03');
  });
  after(() => database.close());

  test('the first import is a version with every entry added', async () => {
    const started = performance.now();
    const outcome = await importList(database.db.lists, older);
    const seconds = (performance.now() - started) / 1000;
    assert.ok(outcome.status === 'imported', JSON.stringify(outcome));
    assert.match(outcome.version.id, /^lv_[0-9a-z]{26}$/);
    assert.equal(outcome.version.entityCount, 12_211);
    assert.equal(outcome.version.publishedOn, '2023-05-02');
    assert.equal(outcome.version.previousVersionId, null);
    assert.deepEqual(outcome.version.changes, { added: 12_211, removed: 0, changed: 0 });
    const { person, organization, vessel, aircraft } = outcome.version.countsByType;
    assert.equal(person + organization + vessel + aircraft, 12_211);
    assert.ok(seconds < 20, `12,211 entities took ${seconds.toFixed(1)} s`);
  });

  test('the next year is a new version whose difference matches one computed independently', async () => {
    const before = (await database.db.lists.activeVersions())[0];
    const started = performance.now();
    const outcome = await importList(database.db.lists, newer);
    const seconds = (performance.now() - started) / 1000;
    assert.ok(outcome.status === 'imported', JSON.stringify(outcome));
    const expected = expectedDiff(older.entities, newer.entities);
    assert.equal(outcome.version.entityCount, 14_965);
    assert.equal(outcome.version.previousVersionId, before?.id);
    assert.deepEqual(outcome.version.changes, { added: expected.added.length, removed: expected.removed.length, changed: expected.changed.length });
    // SOURCES.md: about 3,107 added and 353 removed over the year.
    assert.ok(Math.abs(expected.added.length - 3_107) < 50 && Math.abs(expected.removed.length - 353) < 50, JSON.stringify(outcome.version.changes));
    const stored = await database.db.lists.changesOf(outcome.version.id);
    assert.deepEqual(stored, expected);
    assert.ok(seconds < 20, `14,965 entities took ${seconds.toFixed(1)} s`);
  });

  test('the active version reads back as the parsed entities', async () => {
    const [id] = await database.db.lists.activeVersionIds();
    const entities = (await database.db.lists.entryTexts(id as string)).map((e) => JSON.parse(e.text) as ListEntity);
    assert.equal(entities.length, 14_965);
    const byId = new Map(newer.entities.map((e) => [e.entryId, canonicalJson(e)]));
    assert.ok(entities.every((e) => byId.get(e.entryId) === canonicalJson(e)));
  });

  test('importing the same content again creates no version', async () => {
    const active = await database.db.lists.activeVersions();
    const outcome = await importList(database.db.lists, { ...newer, sourceSha256: 'b'.repeat(64) });
    assert.equal(outcome.status, 'unchanged');
    assert.deepEqual(await database.db.lists.activeVersions(), active);
    const [row] = await database.owner<{ count: number }>('SELECT count(*)::int AS count FROM list_versions');
    assert.equal(row?.count, 2);
  });

  test('a file with far fewer entities is refused with both counts, unless the shrink is allowed', async () => {
    const active = (await database.db.lists.activeVersions())[0];
    const truncated = { ...newer, entities: newer.entities.slice(0, 5_000) };
    const refused = await importList(database.db.lists, truncated);
    assert.equal(refused.status, 'refused');
    assert.match(refused.status === 'refused' ? refused.reason : '', new RegExp(`5000 entities, the active version ${active?.id} has 14965 \\(below 50%\\)`));
    assert.equal((await database.db.lists.activeVersions())[0]?.id, active?.id);

    const allowed = await importList(database.db.lists, truncated, { allowShrink: true });
    assert.equal(allowed.status, 'imported');
    if (allowed.status === 'imported') assert.equal(allowed.version.changes.removed, 9_965);
  });

  test('the runtime role reads the lists and cannot change them', async () => {
    const actor = { organizationId: 'org_00000000000000000000000000', kind: 'system' as const, id: 'lists-test' };
    const rows = await database.db.withTenant(actor, (trx) => sql<{ n: number }>`SELECT count(*)::int AS n FROM list_heads`.execute(trx));
    assert.equal(rows.rows[0]?.n, 1);
    for (const statement of ['DELETE FROM list_entries', 'UPDATE list_heads SET version_id = version_id', 'DELETE FROM list_versions']) {
      await assert.rejects(
        database.db.withTenant(actor, (trx) => sql.raw(statement).execute(trx)),
        (error: { code?: string }) => error.code === '42501',
      );
    }
  });
});
