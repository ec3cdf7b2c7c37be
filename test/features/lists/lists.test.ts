/**
 * GET /api/v1/lists, the `lists` readiness check, the 503 the screening endpoints will answer
 * with nothing loaded, and the catalog picking up a version imported by someone else.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { isAppError } from '../../../src/http/errors.ts';
import { type ListSnapshot, openListCatalog, requireLists } from '../../../src/lists/catalog.ts';
import { importList, type ListToImport } from '../../../src/lists/list-import.ts';
import { parseBisDpl } from '../../../src/screening/lists/bis-dpl.ts';
import { parseOfacLegacy } from '../../../src/screening/lists/ofac-legacy.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';

const fixture = (path: string) => fs.readFileSync(new URL(`../../fixtures/${path}`, import.meta.url), 'latin1');
const parsed = (list: string, entities: ListToImport['entities'], publishedAt?: string): ListToImport => ({
  list,
  format: list === 'BIS_DPL' ? 'bis-dpl' : 'ofac-legacy',
  files: [],
  sourceSha256: 'c'.repeat(64),
  ...(publishedAt && { publishedAt }),
  entities,
  warnings: [],
});
const ofacFixture = () => parsed('OFAC_SDN', parseOfacLegacy('OFAC_SDN', { main: fixture('ofac/sdn.csv'), aliases: fixture('ofac/alt.csv') }).entities);
const bisFixture = () => parsed('BIS_DPL', parseBisDpl(fixture('bis/dpl.txt')), '2023-11-30');

describe('the lists a service screens against', () => {
  let harness: TestApp;
  let tenant: TestTenant;
  before(async () => {
    harness = await buildTestApp();
    tenant = await createTenant(harness.database.owner, { tier: 'defense' });
  });
  after(() => harness.close());

  test('with nothing loaded: readyz is not ready and names the missing lists; screening would answer 503', async () => {
    const ready = await harness.app.inject({ url: '/api/readyz' });
    assert.equal(ready.statusCode, 503);
    assert.deepEqual(ready.json().checks.lists, {
      ok: false,
      detail: 'no list loaded; missing: OFAC_SDN, OFAC_CONS, UN_SC, BIS_EL, BIS_UVL, BIS_MEU, DDTC_DEBARRED, STATE_ISN, BIS_DPL, UK_FCDO',
    });
    const listed = await harness.app.inject({ url: '/api/v1/lists', headers: tenant.headers });
    assert.equal(listed.statusCode, 200);
    assert.deepEqual([listed.json().data, listed.json().loaded_at], [[], null]);
    assert.throws(
      () => requireLists(harness.app.lists),
      (error) => isAppError(error) && error.code === 'lists_unavailable' && error.status === 503,
    );
  });

  test('after an import the service lists the version it loaded, and is ready', async () => {
    const outcome = await importList(harness.database.db.lists, ofacFixture());
    assert.equal(outcome.status, 'imported');
    assert.equal(await harness.app.lists.refresh(), true);
    assert.equal(await harness.app.lists.refresh(), false, 'nothing new to load the second time');

    const listed = await harness.app.inject({ url: '/api/v1/lists', headers: tenant.headers });
    assert.equal(listed.statusCode, 200);
    const [version, ...others] = listed.json().data;
    assert.equal(others.length, 0);
    assert.equal(version.list, 'OFAC_SDN');
    assert.equal(version.version_id, outcome.status === 'imported' ? outcome.version.id : '');
    assert.deepEqual([version.entity_count, version.counts_by_type], [3, { person: 1, organization: 1, vessel: 1, aircraft: 0 }]);
    assert.deepEqual([version.published_on, version.published_days_ago, version.imported_hours_ago], [null, null, 0]);
    assert.deepEqual(version.changes, { added: 3, removed: 0, changed: 0 });
    assert.ok(listed.json().missing.includes('UN_SC') && !listed.json().missing.includes('OFAC_SDN'));
    assert.equal(requireLists(harness.app.lists).index.entityCount, 3);

    const ready = await harness.app.inject({ url: '/api/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.equal(ready.json().checks.lists.ok, true);
    assert.match(ready.json().checks.lists.detail, /^missing: OFAC_CONS, UN_SC, BIS_EL, .*, BIS_DPL, UK_FCDO$/);
  });

  test('a running catalog picks up a version imported elsewhere, by polling, and tells its subscribers', async () => {
    const catalog = await openListCatalog(harness.database.db.lists, { refreshSeconds: 1, expectedLists: ['OFAC_SDN', 'BIS_DPL'] });
    try {
      assert.deepEqual(catalog.missing(), ['BIS_DPL']);
      const next = new Promise<ListSnapshot>((resolve) => catalog.subscribe(resolve));
      const outcome = await importList(harness.database.db.lists, bisFixture());
      const snapshot = await next;
      assert.deepEqual(
        snapshot.versions.map((v) => [v.list, v.publishedOn]),
        [
          ['BIS_DPL', '2023-11-30'],
          ['OFAC_SDN', null],
        ],
      );
      assert.equal(snapshot.versions[0]?.id, outcome.status === 'imported' ? outcome.version.id : undefined);
      assert.equal(snapshot.index.entityCount, 3 + bisFixture().entities.length, 'the index is built over the new snapshot');
      const first = snapshot.entity('BIS_DPL', snapshot.entryIds('BIS_DPL')[0] ?? '');
      assert.equal((await snapshot.index.screen({ name: first?.names[0]?.full ?? '', kind: 'any' }))[0]?.entity.entryId, first?.entryId);
      assert.deepEqual(catalog.missing(), []);
    } finally {
      catalog.close();
    }
  });

  test('the route is documented in OpenAPI with its tier', async () => {
    const spec = (await harness.app.inject({ url: '/api/v1/openapi.json' })).json();
    const operation = spec.paths['/api/v1/lists'].get;
    assert.equal(operation['x-tier'], 'defense');
    assert.match(operation.description, /stale list is visible/);
  });
});
