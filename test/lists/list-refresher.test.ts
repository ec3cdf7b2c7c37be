/**
 * The scheduled refresh's rules: which sources are due (the interval, and backoff after a
 * failure), the lease that lets one process download at a time and passes on when its holder
 * dies, and two refreshers over one database checking each source once.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { EnvReader } from '../../src/env-reader.ts';
import { openListCatalog } from '../../src/lists/catalog.ts';
import { openFreshnessMonitor } from '../../src/lists/freshness.ts';
import { dueSources, startListRefresher } from '../../src/lists/list-refresher.ts';
import { configuredSources } from '../../src/lists/list-sources.ts';
import { readListsConfig } from '../../src/lists/lists-config.ts';
import type { SourceCheck } from '../../src/lists/source-check-store.ts';
import { type ListPublisher, startListPublisher } from '../helpers/list-publisher.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

const fixture = (path: string) => fs.readFileSync(new URL(`../fixtures/${path}`, import.meta.url));
const silent = { info: () => {}, warn: () => {}, error: () => {} };

function listsConfig(env: Record<string, string>) {
  const problems: string[] = [];
  const config = readListsConfig(new EnvReader(env, problems), (p) => p);
  assert.deepEqual(problems, []);
  return config;
}

describe('which sources are due', () => {
  const sources = configuredSources({ unSc: ['https://un.example/consolidated.xml'], csl: ['https://csl.example/consolidated.csv'] });
  const now = new Date('2026-11-24T12:00:00Z');
  const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
  const check = (source: string, lastAttemptSecondsAgo: number, failures = 0): SourceCheck => ({
    source,
    lastAttemptAt: ago(lastAttemptSecondsAgo),
    lastSuccessAt: null,
    consecutiveFailures: failures,
    lastError: failures ? 'down' : null,
    validators: {},
    versionIds: [],
    failingSince: null,
  });
  const due = (checks: SourceCheck[], interval = 3_600) => dueSources(sources, checks, { refreshIntervalSeconds: interval }, now).map((s) => s.name);

  test('a source never checked is due; one checked within the interval is not; one checked an interval ago is', () => {
    assert.deepEqual(due([]), ['unSc', 'csl']);
    assert.deepEqual(due([check('unSc', 600), check('csl', 3_600)]), ['csl']);
  });

  test('after a failure it is tried again sooner, a minute doubling with each failure, never later than the interval', () => {
    assert.deepEqual(due([check('unSc', 61, 1), check('csl', 61, 2)]), ['unSc']);
    assert.deepEqual(due([check('unSc', 119, 2), check('csl', 121, 2)]), ['csl']);
    assert.deepEqual(due([check('unSc', 30, 1), check('csl', 30, 9)], 30), ['unSc', 'csl']);
  });
});

describe('the refresh lease and two refreshers over one database', () => {
  let database: TestDatabase;
  let publisher: ListPublisher;

  before(async () => {
    database = await openTestDatabase();
    publisher = await startListPublisher();
    publisher.serve('/un/consolidated.xml', fixture('un/consolidated.xml'));
    publisher.serve('/bis/dpl.txt', fixture('bis/dpl.txt'));
  });
  after(async () => {
    await publisher.close();
    await database.close();
  });

  test('one holder at a time; the holder renews; an expired lease passes on; a released one is free', async () => {
    const checks = database.db.listChecks;
    assert.equal(await checks.acquireLease('a', 60), true);
    assert.equal(await checks.acquireLease('b', 60), false);
    assert.equal(await checks.acquireLease('a', 60), true, 'the holder renews');
    await database.owner("UPDATE list_refresh_lease SET expires_at = now() - interval '1 second'");
    assert.equal(await checks.acquireLease('b', 60), true, 'a holder that stopped renewing loses it');
    assert.equal(await checks.acquireLease('a', 60), false);
    await checks.releaseLease('b');
    assert.equal(await checks.acquireLease('a', 60), true);
    await checks.releaseLease('a');
  });

  test('two refreshers started together download each file once, and both serve the new versions', async () => {
    const config = listsConfig({
      LISTS_REFRESH_INTERVAL: '1h',
      LISTS_RELOAD_SECONDS: '3600',
      ...{ LISTS_URL_OFAC_SDN: 'off', LISTS_URL_OFAC_CONS: 'off', LISTS_URL_CSL: 'off', LISTS_URL_UK_FCDO: 'off' },
      LISTS_URL_UN_SC: `${publisher.base}/un/consolidated.xml`,
      LISTS_URL_BIS_DPL: `${publisher.base}/bis/dpl.txt`,
    });
    const sources = configuredSources(config.sources);
    const processes = await Promise.all(
      [1, 2].map(async () => {
        const catalog = await openListCatalog(database.db.lists, { refreshSeconds: 3_600, expectedLists: ['UN_SC', 'BIS_DPL'] });
        const freshness = await openFreshnessMonitor(database.db.listChecks, sources, config, (error) => assert.fail(String(error)));
        return { catalog, freshness, refresher: startListRefresher({ db: database.db, sources, catalog, freshness, config, log: silent }) };
      }),
    );
    try {
      // Each started a round at once; whichever did not get the lease has nothing due once it may look again.
      await Promise.all(processes.map((p) => p.refresher.runDue()));
      const again = await Promise.all(processes.map((p) => p.refresher.runDue()));
      assert.deepEqual(again, [undefined, undefined], 'nothing is due an instant after the check');
      assert.deepEqual(publisher.requests.map((r) => [r.path, r.status]).sort(), [
        ['/bis/dpl.txt', 200],
        ['/un/consolidated.xml', 200],
      ]);
      for (const p of processes) await p.catalog.refresh();
      for (const p of processes)
        assert.deepEqual(
          p.catalog.current()?.versions.map((v) => v.list),
          ['BIS_DPL', 'UN_SC'],
        );
      assert.deepEqual(processes[0]?.freshness.report().degraded, false);
    } finally {
      for (const p of processes) {
        await p.refresher.stop();
        p.catalog.close();
        p.freshness.close();
      }
    }
  });

  test('a failed check is logged without the token a configured URL carries', async () => {
    const config = listsConfig({
      LISTS_RELOAD_SECONDS: '3600',
      ...{ LISTS_URL_OFAC_SDN: 'off', LISTS_URL_OFAC_CONS: 'off', LISTS_URL_CSL: 'off', LISTS_URL_UN_SC: 'off', LISTS_URL_BIS_DPL: 'off' },
      // A source no earlier test checked, so it is due.
      LISTS_URL_UK_FCDO: `${publisher.base}/private/UK-Sanctions-List.csv?token=s3cret`,
      LISTS_DOWNLOAD_RETRIES: '0',
    });
    const sources = configuredSources(config.sources);
    const lines: string[] = [];
    const log = { info: () => {}, error: () => {}, warn: (fields: object, message: string) => void lines.push(JSON.stringify(fields), message) };
    const catalog = await openListCatalog(database.db.lists, { refreshSeconds: 3_600, expectedLists: [] });
    const freshness = await openFreshnessMonitor(database.db.listChecks, sources, config, (error) => assert.fail(String(error)));
    const refresher = startListRefresher({ db: database.db, sources, catalog, freshness, config, log });
    try {
      await refresher.runDue();
      const logged = lines.join('\n');
      assert.match(logged, /\/private\/UK-Sanctions-List\.csv\?…: the server answered 404/);
      assert.ok(!logged.includes('s3cret'));
    } finally {
      await refresher.stop();
      catalog.close();
      freshness.close();
    }
  });
});
