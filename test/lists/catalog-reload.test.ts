/**
 * The catalog reloading after a new version landed: it reads only what that version changed (the
 * rest of the list and the other lists are kept), ends up with what a fresh load would, and keeps
 * the event loop turning (serving the previous snapshot) until the new one is complete.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ListCatalog, type ListSnapshot, openListCatalog } from '../../src/lists/catalog.ts';
import { importList } from '../../src/lists/list-import.ts';
import type { ListStore } from '../../src/lists/list-store.ts';
import { parseOfacLegacy } from '../../src/screening/lists/ofac-legacy.ts';
import { readListFile, skipWithoutListData } from '../helpers/list-data.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';
import { SDN_ROWS, sdnList, UVL_NAMES, uvlList } from '../helpers/test-lists.ts';

const NEW_ROW = `20003,"KRASNOV, Pavel Igorevich","individual","RUSSIA-EO14024",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 11 Jan 1975; nationality Russia."`;

describe('a catalog reload', () => {
  let database: TestDatabase;
  let catalog: ListCatalog;
  const read: string[] = [];
  let counting: ListStore;
  before(async () => {
    database = await openTestDatabase();
    const store = database.db.lists;
    counting = {
      ...store,
      entryTexts: (id, entryIds) => (read.push(entryIds ? `${entryIds.join(', ')} of ${id}` : `all of ${id}`), store.entryTexts(id, entryIds)),
    };
    await importList(store, sdnList());
    await importList(store, uvlList());
    catalog = await openListCatalog(counting, { refreshSeconds: 3600, expectedLists: [] });
  });
  after(async () => {
    catalog.close();
    await database.close();
  });

  test('reads only the entries the new version changed, and answers as a fresh load would', async () => {
    const first = catalog.current() as ListSnapshot;
    assert.equal(first.index.entityCount, SDN_ROWS.length + UVL_NAMES.length);
    assert.equal(read.length, 2, 'the first load read both lists whole');
    read.length = 0;
    const changedRow = (SDN_ROWS[1] as string).replace('DOB 03 Apr 1970', 'DOB 04 Apr 1970');
    const outcome = await importList(database.db.lists, sdnList([SDN_ROWS[0] as string, changedRow, NEW_ROW]));
    assert.ok(outcome.status === 'imported');
    assert.deepEqual(outcome.version.changes, { added: 1, removed: 1, changed: 1 });
    assert.equal(await catalog.refresh(), true);
    assert.deepEqual(read, [`20003, 20001 of ${outcome.version.id}`], 'the added and the changed entry; nothing of the Unverified List');

    const reloaded = catalog.current() as ListSnapshot;
    const fresh = await openListCatalog(database.db.lists, { refreshSeconds: 3600, expectedLists: [] });
    try {
      const loaded = fresh.current() as ListSnapshot;
      assert.deepEqual(reloaded.versions, loaded.versions);
      for (const { list } of loaded.versions) {
        assert.deepEqual(reloaded.entryIds(list), loaded.entryIds(list), list);
        for (const id of loaded.entryIds(list)) assert.deepEqual(reloaded.entity(list, id), loaded.entity(list, id), `${list} ${id}`);
      }
      assert.deepEqual(reloaded.entryIds('OFAC_SDN'), ['10001', '20001', '20003']);
      assert.deepEqual(reloaded.entity('OFAC_SDN', '20001')?.datesOfBirth, [{ year: 1970, month: 4, day: 4 }]);
      assert.equal(reloaded.entity('OFAC_SDN', '20002'), undefined, 'the removed entry is gone');
      for (const name of ['Pavel Krasnov', 'Dmitri Volkov', 'Quillon Precision Components', 'Northwind Maritime']) {
        assert.deepEqual(await reloaded.index.screen({ name, kind: 'any' }), await loaded.index.screen({ name, kind: 'any' }), name);
      }
      assert.equal((await reloaded.index.screen({ name: 'Pavel Krasnov', kind: 'person' }))[0]?.entity.entryId, '20003');
    } finally {
      fresh.close();
    }
  });
});

describe('a catalog reloading a large version', { skip: skipWithoutListData() }, () => {
  let database: TestDatabase;
  before(async () => {
    database = await openTestDatabase();
    await importList(database.db.lists, uvlList());
  });
  after(() => database.close());

  test('keeps the event loop turning, and serves the previous snapshot until the new one is complete', async () => {
    const catalog = await openListCatalog(database.db.lists, { refreshSeconds: 3600, expectedLists: [] });
    try {
      const previous = catalog.current();
      const main = readListFile('ofac_sdn_2024-05/history/2023-05-02/sdn.csv');
      const entities = parseOfacLegacy('OFAC_SDN', { main }).entities;
      const outcome = await importList(database.db.lists, {
        list: 'OFAC_SDN',
        format: 'ofac-legacy',
        files: [],
        sourceSha256: 'a'.repeat(64),
        entities,
        warnings: [],
      });
      assert.ok(outcome.status === 'imported');
      // What a request would find at each turn of the event loop while the catalog reloads.
      const served: (ListSnapshot | undefined)[] = [];
      let reloading = true;
      const watch = () => {
        if (!reloading) return;
        served.push(catalog.current());
        setImmediate(watch);
      };
      setImmediate(watch);
      await catalog.refresh();
      reloading = false;
      assert.ok(served.length > 10, `the event loop turned ${served.length} times while ${entities.length} entities were read and indexed`);
      assert.ok(
        served.every((s) => s === previous),
        'every turn was served the previous, complete snapshot',
      );
      assert.equal(catalog.current()?.index.entityCount, entities.length + UVL_NAMES.length);
    } finally {
      catalog.close();
    }
  });
});
