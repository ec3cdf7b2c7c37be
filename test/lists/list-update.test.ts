/**
 * `lists update` against a real HTTP server on this machine serving the fixture files: the
 * download path (retry after a 503, SHA-256, URLs recorded), the refusal of a file that parses
 * to far fewer entries, errors that are not retried, the timeout, and the warning a service
 * logs when it cannot download at its first start.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { openListCatalog } from '../../src/lists/catalog.ts';
import { updateListsIfNone } from '../../src/lists/lists-at-start.ts';
import { configuredSources } from '../../src/lists/list-sources.ts';
import { updateLists, type UpdateOptions } from '../../src/lists/list-update.ts';
import { loadConfig } from '../../src/config.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

const fixture = (path: string) => fs.readFileSync(new URL(`../fixtures/${path}`, import.meta.url));
const FILES: Record<string, Buffer> = {
  '/ofac/sdn.csv': fixture('ofac/sdn.csv'),
  '/ofac/add.csv': fixture('ofac/add.csv'),
  '/ofac/alt.csv': fixture('ofac/alt.csv'),
  '/ofac/sdn_comments.csv': fixture('ofac/sdn_comments.csv'),
  // The same list cut to its first entry: parses fine, but has a third of the entities.
  '/shrunk/sdn.csv': Buffer.from(`${fixture('ofac/sdn.csv').toString('latin1').split('\r\n')[0]}\r\n`, 'latin1'),
  '/shrunk/add.csv': fixture('ofac/add.csv'),
  '/shrunk/alt.csv': fixture('ofac/alt.csv'),
  '/shrunk/sdn_comments.csv': fixture('ofac/sdn_comments.csv'),
  '/bis/dpl.txt': fixture('bis/dpl.txt'),
};

describe('lists update over HTTP', () => {
  let database: TestDatabase;
  let server: http.Server;
  let base: string;
  const requests: string[] = [];
  /** Paths that answer 503 this many more times. */
  const unavailable = new Map<string, number>();

  before(async () => {
    database = await openTestDatabase();
    server = http.createServer((request, response) => {
      const url = request.url ?? '';
      requests.push(url);
      const failures = unavailable.get(url) ?? 0;
      if (failures > 0) {
        unavailable.set(url, failures - 1);
        return response.writeHead(503).end('busy');
      }
      if (url === '/slow/dpl.txt') return; // never answers
      const body = FILES[url];
      if (!body) return response.writeHead(404).end('no such file');
      response.writeHead(200, { 'content-type': 'text/csv', 'content-length': body.length }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await database.close();
  });

  const options: UpdateOptions = { timeoutMs: 5_000, retries: 2, retryBaseMs: 10 };

  test('downloads every file, retries after a 503, records URLs and SHA-256, and imports the lists', async () => {
    unavailable.set('/ofac/sdn.csv', 1);
    const sources = configuredSources({ ofacSdn: `${base}/ofac`, bisDpl: `${base}/bis/dpl.txt` });
    const [ofac, bis] = await updateLists(database.db.lists, sources, options);
    assert.equal(ofac?.error, undefined);
    assert.deepEqual(ofac?.files.map((f) => [f.url.replace(base, ''), f.attempts]), [['/ofac/sdn.csv', 2], ['/ofac/add.csv', 1], ['/ofac/alt.csv', 1], ['/ofac/sdn_comments.csv', 1]]);
    assert.equal(ofac?.files[0]?.sha256, createHash('sha256').update(FILES['/ofac/sdn.csv'] as Buffer).digest('hex'));
    assert.equal(requests.filter((r) => r === '/ofac/sdn.csv').length, 2);
    const [sdn] = ofac?.lists ?? [];
    assert.ok(sdn?.status === 'imported', JSON.stringify(sdn));
    assert.equal(sdn.version.entityCount, 3);
    assert.ok(sdn.version.files.includes(`${base}/ofac/sdn.csv`), 'the version names the URLs, not the temporary folder');
    assert.deepEqual(bis?.lists.map((o) => [o.list, o.status]), [['BIS_DPL', 'imported']]);
  });

  test('the same files again create no version', async () => {
    const outcomes = await updateLists(database.db.lists, configuredSources({ ofacSdn: `${base}/ofac/` }), options);
    assert.deepEqual(outcomes[0]?.lists.map((o) => o.status), ['unchanged']);
  });

  test('a file that parses to far fewer entries is refused, and the active version stays', async () => {
    const active = await database.db.lists.activeVersions();
    const [ofac] = await updateLists(database.db.lists, configuredSources({ ofacSdn: `${base}/shrunk/` }), options);
    const [sdn] = ofac?.lists ?? [];
    assert.equal(sdn?.status, 'refused');
    assert.match(sdn?.status === 'refused' ? sdn.reason : '', /OFAC_SDN: the new file has 1 entities, the active version lv_\w+ has 3 \(below 50%\)/);
    assert.deepEqual(await database.db.lists.activeVersions(), active);
    const allowed = await updateLists(database.db.lists, configuredSources({ ofacSdn: `${base}/shrunk/` }), { ...options, allowShrink: true });
    assert.equal(allowed[0]?.lists[0]?.status, 'imported');
  });

  test('a 404 fails its source at once, without retries, and the other sources still update', async () => {
    requests.length = 0;
    const outcomes = await updateLists(database.db.lists, configuredSources({ unSc: `${base}/un/consolidated.xml`, bisDpl: `${base}/bis/dpl.txt` }), options);
    assert.match(outcomes[0]?.error ?? '', /un\/consolidated\.xml: the server answered 404 Not Found$/);
    assert.equal(requests.filter((r) => r.startsWith('/un/')).length, 1);
    assert.deepEqual(outcomes[1]?.lists.map((o) => o.status), ['unchanged']);
  });

  test("a list another configured source is the authority for is left to it (the CSL's copy of the DPL), and taken when that source is off", async () => {
    // Served as the CSL file: the DPL's header makes it read as the DPL, which is all this needs.
    const both = await updateLists(database.db.lists, configuredSources({ bisDpl: `${base}/bis/dpl.txt`, csl: `${base}/bis/dpl.txt` }), options);
    assert.deepEqual(both.map((s) => [s.source, s.lists.map((o) => o.list)]), [['bisDpl', ['BIS_DPL']], ['csl', []]]);
    const alone = await updateLists(database.db.lists, configuredSources({ csl: `${base}/bis/dpl.txt` }), options);
    assert.deepEqual(alone.map((s) => [s.source, s.lists.map((o) => o.list)]), [['csl', ['BIS_DPL']]]);
  });

  test('a server that never answers is given up after the timeout and the retries', async () => {
    const started = Date.now();
    const [slow] = await updateLists(database.db.lists, configuredSources({ bisDpl: `${base}/slow/dpl.txt` }), { timeoutMs: 200, retries: 1, retryBaseMs: 10 });
    assert.match(slow?.error ?? '', /slow\/dpl\.txt: no complete answer within the timeout \(after 2 attempts\)/);
    assert.ok(Date.now() - started < 3_000);
  });

  test('at the first start without network, the service logs one warning saying how to load lists offline', async () => {
    const empty = await openTestDatabase();
    const warnings: string[] = [];
    const log = { info: () => {}, error: () => {}, warn: (_fields: object, message: string) => void warnings.push(message) };
    const config = loadConfig({ LISTS_URL_OFAC_SDN: 'http://127.0.0.1:9/', LISTS_URL_OFAC_CONS: 'off', LISTS_URL_UN_SC: 'http://127.0.0.1:9/un.xml', LISTS_URL_CSL: 'off', LISTS_URL_BIS_DPL: 'off', LISTS_DOWNLOAD_RETRIES: '0' }).lists;
    const catalog = await openListCatalog(empty.db.lists, { refreshSeconds: 60, expectedLists: [] });
    try {
      await updateListsIfNone(empty.db.lists, catalog, config, log);
      assert.equal(warnings.length, 1);
      assert.match(warnings[0] ?? '', /could not download OFAC SDN \(legacy CSV\), UN Security Council Consolidated List\. .*gatehouse lists import \.\.\/path/);
      assert.equal(catalog.current(), undefined);
    } finally {
      catalog.close();
      await empty.close();
    }
  });
});
