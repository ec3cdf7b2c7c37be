/**
 * An import writes its version in small statements and activates it in one short transaction:
 * nobody sees it before, a failure anywhere activates nothing and leaves nothing behind, an
 * import overtaken by another is compared again with the version that landed, and a version
 * abandoned by a process that died is removed by the next import. Real SDN entries, cut to a few
 * hundred so that each version is several batches and the file stays quick.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../../src/ids.ts';
import { importList, type ListToImport } from '../../src/lists/list-import.ts';
import type { ListStaging } from '../../src/lists/list-staging.ts';
import { createListStore, type ListStore } from '../../src/lists/list-store.ts';
import { entryBatches, prepareList } from '../../src/lists/prepared-list.ts';
import { parseOfacLegacy } from '../../src/screening/lists/ofac-legacy.ts';
import { readListFile, skipWithoutListData } from '../helpers/list-data.ts';
import { expectedDiff } from '../helpers/list-diff.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';
import { sdnList } from '../helpers/test-lists.ts';

const sdn = (relative: string, count: number, sourceSha256: string): ListToImport => ({
  list: 'OFAC_SDN',
  format: 'ofac-legacy',
  files: [relative],
  sourceSha256,
  entities: parseOfacLegacy('OFAC_SDN', { main: readListFile(relative) }).entities.slice(0, count),
  warnings: [],
});

/** The same store with some staging steps replaced. */
const withStaging = (store: ListStore, steps: Partial<ListStaging>): ListStore => ({ ...store, staging: { ...store.staging, ...steps } });

const byId = (diff: { added: string[]; removed: string[]; changed: string[] }) => ({
  added: [...diff.added].sort(),
  removed: [...diff.removed].sort(),
  changed: [...diff.changed].sort(),
});

describe('an import staged in small statements', { skip: skipWithoutListData() }, () => {
  let database: TestDatabase;
  let store: ListStore;
  let older: ListToImport;
  let newer: ListToImport;
  const count = async (sqlText: string) => (await database.owner<{ n: number }>(sqlText))[0]?.n;
  const activeId = async () => (await store.activeVersions())[0]?.id;
  before(async () => {
    database = await openTestDatabase();
    store = database.db.lists;
    older = sdn('ofac_sdn_2024-05/history/2023-05-02/sdn.csv', 600, 'a'.repeat(64));
    newer = sdn('ofac_sdn_2024-05/sdn.csv', 700, 'b'.repeat(64));
    assert.ok([...entryBatches(prepareList(older))].length >= 5, 'each version is written in several batches');
  });
  after(() => database.close());

  test('nobody reads a version while it is written: not by id, not as active, not its entities or changes', async () => {
    let whileStaged: Record<string, unknown> = {};
    const observed = withStaging(store, {
      activate: async (versionId) => {
        whileStaged = {
          version: await store.version(versionId),
          activeIds: await store.activeVersionIds(),
          active: await store.activeVersions(),
          entities: (await store.entryTexts(versionId)).length,
          changes: await store.changesOf(versionId),
          written: await count(`SELECT count(*)::int AS n FROM list_entries WHERE version_id = '${versionId}'`),
        };
        return store.staging.activate(versionId);
      },
    });
    const outcome = await importList(observed, older);
    assert.ok(outcome.status === 'imported', JSON.stringify(outcome));
    assert.deepEqual(whileStaged, {
      version: undefined,
      activeIds: [],
      active: [],
      entities: 0,
      changes: { added: [], removed: [], changed: [] },
      written: 600,
    });
    assert.equal((await store.version(outcome.version.id))?.entityCount, 600);
    assert.equal((await store.entryTexts(outcome.version.id)).length, 600);
    assert.equal((await store.changesOf(outcome.version.id)).added.length, 600);
  });

  test('a batch that fails part-way activates nothing and leaves no trace', async () => {
    const before = await activeId();
    let batches = 0;
    const failing = withStaging(store, {
      addEntries: async (versionId, batch) => {
        if (++batches === 3) throw new Error('the connection dropped');
        return store.staging.addEntries(versionId, batch);
      },
    });
    await assert.rejects(importList(failing, newer), /the connection dropped/);
    assert.equal(await activeId(), before);
    assert.equal(await count('SELECT count(*)::int AS n FROM list_versions'), 1);
    assert.equal(await count(`SELECT count(*)::int AS n FROM list_entries WHERE version_id <> '${before}'`), 0);
  });

  test('a version missing a batch is never activated', async () => {
    const before = await activeId();
    let batches = 0;
    const lossy = withStaging(store, {
      addEntries: async (versionId, batch) => {
        if (++batches === 2) return; // lost without an error
        return store.staging.addEntries(versionId, batch);
      },
    });
    await assert.rejects(importList(lossy, newer), /has \d+ of its 700 entries written; it was not activated/);
    assert.equal(await activeId(), before);
    assert.equal(await count('SELECT count(*)::int AS n FROM list_versions'), 1);
  });

  test('what the active version holds unchanged is copied inside the database; only what changed is sent', async () => {
    const active = (await store.activeVersions())[0];
    assert.ok(active, 'a version of the list is active');
    let sent = 0;
    let copied = 0;
    const counting = withStaging(store, {
      addEntries: async (versionId, batch) => {
        sent += (JSON.parse(batch) as unknown[]).length;
        return store.staging.addEntries(versionId, batch);
      },
      copyEntries: async (versionId, fromVersionId, entryIds) => {
        assert.equal(fromVersionId, active.id);
        copied += entryIds.length;
        return store.staging.copyEntries(versionId, fromVersionId, entryIds);
      },
    });
    // The active version less 30 entries, 20 of them renamed: 30 removed, 20 changed, 550 unchanged.
    const current = older.entities.slice(0, 600);
    const edited: ListToImport = {
      ...older,
      sourceSha256: 'e'.repeat(64),
      entities: current
        .slice(30)
        .map((e, i) =>
          i < 20 ? { ...e, names: [{ ...(e.names[0] as (typeof e.names)[number]), full: `${e.names[0]?.full} Renamed` }, ...e.names.slice(1)] } : e,
        ),
    };
    const outcome = await importList(counting, edited);
    assert.ok(outcome.status === 'imported', JSON.stringify(outcome));
    assert.deepEqual(outcome.version.changes, { added: 0, removed: 30, changed: 20 });
    assert.equal(sent, 20);
    assert.equal(copied, 550);
    // The version holds the list it was given, entity for entity, whichever way each entry was written.
    const stored = new Map((await store.entryTexts(outcome.version.id)).map((e) => [e.entryId, JSON.parse(e.text)]));
    assert.equal(stored.size, edited.entities.length);
    for (const entity of edited.entities) assert.deepEqual(stored.get(entity.entryId), JSON.parse(JSON.stringify(entity)), entity.entryId);
  });

  test('a version missing a copied page is never activated', async () => {
    const before = await activeId();
    const lossy = withStaging(store, { copyEntries: async () => {} });
    await assert.rejects(importList(lossy, older), /has \d+ of its 600 entries written; it was not activated/);
    assert.equal(await activeId(), before);
  });

  test('overtaken by another import of the list, it is compared again with the version that landed', async () => {
    // Landing while `newer` is written: the older file less its first 50 entries.
    const overtaking: ListToImport = { ...older, entities: older.entities.slice(50), sourceSha256: 'c'.repeat(64) };
    let landed: string | undefined;
    const racing = withStaging(store, {
      activate: async (versionId) => {
        if (!landed) {
          const outcome = await importList(store, overtaking);
          landed = outcome.status === 'imported' ? outcome.version.id : 'not imported';
        }
        return store.staging.activate(versionId);
      },
    });
    const outcome = await importList(racing, newer);
    assert.ok(outcome.status === 'imported', JSON.stringify(outcome));
    assert.match(landed ?? '', /^lv_/);
    assert.equal(outcome.version.previousVersionId, landed);
    const expected = expectedDiff(overtaking.entities, newer.entities);
    assert.deepEqual(byId(await store.changesOf(outcome.version.id)), expected);
    assert.deepEqual(outcome.version.changes, { added: expected.added.length, removed: expected.removed.length, changed: expected.changed.length });
    assert.equal(await activeId(), outcome.version.id);
    assert.equal(await count('SELECT count(*)::int AS n FROM list_versions WHERE NOT complete'), 0);
  });

  test('overtaken by an import of the same content, it is unchanged and its own version is removed', async () => {
    const versions = await count('SELECT count(*)::int AS n FROM list_versions');
    let landed: string | undefined;
    const racing = withStaging(store, {
      activate: async (versionId) => {
        if (!landed) {
          const outcome = await importList(store, { ...older, sourceSha256: 'd'.repeat(64) });
          landed = outcome.status === 'imported' ? outcome.version.id : 'not imported';
        }
        return store.staging.activate(versionId);
      },
    });
    const outcome = await importList(racing, older);
    assert.equal(outcome.status, 'unchanged');
    assert.equal(outcome.status === 'unchanged' ? outcome.version.id : undefined, landed);
    assert.equal(await count('SELECT count(*)::int AS n FROM list_versions'), (versions ?? 0) + 1);
    assert.equal(
      await count('SELECT count(*)::int AS n FROM list_entries e WHERE NOT EXISTS (SELECT 1 FROM list_versions v WHERE v.id = e.version_id AND v.complete)'),
      0,
    );
  });
});

describe('versions abandoned by an import that died', () => {
  let database: TestDatabase;
  before(async () => {
    database = await openTestDatabase();
  });
  after(() => database.close());

  /** What a process that died part-way leaves: the version's row and some of its entries, never activated. */
  async function abandonedBy(store: ListStore): Promise<{ id: string; nextBatch: string }> {
    const prepared = prepareList(sdnList());
    const [first, second] = entryBatches(prepared, () => true, 200);
    const id = newId('lv');
    await store.staging.begin({ ...prepared, id, publishedOn: null, previousVersionId: null });
    await store.staging.addEntries(id, first as string);
    return { id, nextBatch: second as string };
  }
  const exists = async (id: string) => (await database.owner<{ n: number }>('SELECT count(*)::int AS n FROM list_versions WHERE id = $1', [id]))[0]?.n === 1;
  const entriesOf = async (id: string) =>
    (await database.owner<{ n: number }>('SELECT count(*)::int AS n FROM list_entries WHERE version_id = $1', [id]))[0]?.n;

  test('is invisible, and the next import removes it', async () => {
    const dead = createListStore(database.connection.kysely, { soleProcess: false });
    const { id, nextBatch } = await abandonedBy(dead);
    await database.owner("UPDATE list_versions SET staged_at = now() - interval '1 hour' WHERE id = $1", [id]);
    const next = createListStore(database.connection.kysely, { soleProcess: false });
    assert.equal(await next.version(id), undefined);
    assert.deepEqual(await next.activeVersionIds(), []);
    assert.deepEqual(await next.entryTexts(id), []);
    assert.equal(await entriesOf(id), 1, 'the dead import had written a batch');

    const outcome = await importList(next, sdnList());
    assert.equal(outcome.status, 'imported');
    assert.equal(await exists(id), false);
    assert.equal(await entriesOf(id), 0);
    // Had it only been paused, it would stop at its next batch rather than write into a removed version.
    await assert.rejects(dead.staging.addEntries(id, nextBatch), /is no longer staged/);
    assert.equal(await entriesOf(id), 0);
  });

  test('a version written minutes ago is left to the process that may still be writing it, unless no other process can be', async () => {
    const writer = createListStore(database.connection.kysely, { soleProcess: true });
    const { id } = await abandonedBy(writer);
    await writer.staging.removeAbandoned();
    assert.equal(await exists(id), true, 'the process writing it does not remove it');
    await createListStore(database.connection.kysely, { soleProcess: false }).staging.removeAbandoned();
    assert.equal(await exists(id), true, 'on PostgreSQL another process may be writing it');

    await createListStore(database.connection.kysely, { soleProcess: true }).staging.removeAbandoned();
    assert.equal(await exists(id), false, 'on the embedded database, a new process knows nobody else is writing it');
    assert.equal(await entriesOf(id), 0);
  });
});
