/**
 * `lists update` (one check of the sources) against a publisher on loopback serving the fixture
 * files: downloads with retries and SHA-256, conditional requests, the User-Agent OFAC requires,
 * redirects, a source's URLs tried in order, the content checks that refuse what is not the list,
 * the shrink guard, and every check recorded for the staleness report.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { after, before, beforeEach, describe, test } from 'node:test';
import { configuredSources, type ListSourceUrls } from '../../src/lists/list-sources.ts';
import { type SourceOutcome, type UpdateOptions, updateLists } from '../../src/lists/list-update.ts';
import { DEFAULT_BROWSER_USER_AGENT } from '../../src/lists/lists-config.ts';
import { type ListPublisher, startListPublisher } from '../helpers/list-publisher.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

const fixture = (path: string) => fs.readFileSync(new URL(`../fixtures/${path}`, import.meta.url));
const OFAC = ['sdn.csv', 'add.csv', 'alt.csv', 'sdn_comments.csv'];
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('lists update over HTTP', () => {
  let database: TestDatabase;
  let publisher: ListPublisher;
  const options: UpdateOptions = { timeoutMs: 5_000, retries: 2, retryBaseMs: 10, browserUserAgent: DEFAULT_BROWSER_USER_AGENT };
  const update = (urls: ListSourceUrls, extra: Partial<UpdateOptions> = {}) => updateLists(database.db, configuredSources(urls), { ...options, ...extra });
  const check = async (source: string) => (await database.db.listChecks.checks()).find((c) => c.source === source);
  const served = (path: string) => publisher.requests.filter((r) => r.path === path);

  before(async () => {
    database = await openTestDatabase();
    publisher = await startListPublisher();
    for (const name of OFAC) publisher.serve(`/ofac/${name}`, fixture(`ofac/${name}`));
    publisher.requireBrowser('/ofac/');
    // The same list cut to its first entry: it reads, but has a third of the entities.
    const first = `${fixture('ofac/sdn.csv').toString('latin1').split('\r\n')[0]}\r\n\x1a`;
    publisher.serve('/shrunk/sdn.csv', Buffer.from(first, 'latin1'));
    for (const name of OFAC.slice(1)) publisher.serve(`/shrunk/${name}`, fixture(`ofac/${name}`));
    publisher.serve('/bis/dpl.txt', fixture('bis/dpl.txt'), { etag: false });
    publisher.serve('/un/consolidated.xml', fixture('un/consolidated.xml'));
  });
  after(async () => {
    await publisher.close();
    await database.close();
  });
  beforeEach(() => {
    publisher.requests.length = 0;
  });

  test('downloads every file with a browser-like User-Agent where OFAC needs one, retries after a 500, and imports', async () => {
    publisher.failNext('/ofac/sdn.csv', 1);
    const [ofac] = await update({ ofacSdn: [`${publisher.base}/ofac`] });
    assert.equal(ofac?.status, 'imported', ofac?.error);
    assert.deepEqual(
      ofac?.files.map((f) => [f.url.replace(publisher.base, ''), f.attempts]),
      [
        ['/ofac/sdn.csv', 2],
        ['/ofac/add.csv', 1],
        ['/ofac/alt.csv', 1],
        ['/ofac/sdn_comments.csv', 1],
      ],
    );
    assert.equal(ofac?.files[0]?.sha256, sha256(fixture('ofac/sdn.csv')));
    assert.ok(publisher.requests.every((r) => r.userAgent === DEFAULT_BROWSER_USER_AGENT));
    const [sdn] = ofac?.lists ?? [];
    assert.ok(sdn?.status === 'imported', JSON.stringify(sdn));
    assert.equal(sdn.version.entityCount, 3);
    assert.ok(sdn.version.files.includes(`${publisher.base}/ofac/sdn.csv`), 'the version names the URLs, not the temporary folder');
    const recorded = await check('ofacSdn');
    assert.equal(recorded?.consecutiveFailures, 0);
    assert.equal(recorded?.validators[`${publisher.base}/ofac/sdn.csv`]?.sha256, sha256(fixture('ofac/sdn.csv')));
  });

  test('the next check sends the ETag back: 304 for every file, nothing downloaded, the list confirmed current', async () => {
    const before = (await database.db.listChecks.confirmations()).find((c) => c.list === 'OFAC_SDN');
    const [ofac] = await update({ ofacSdn: [`${publisher.base}/ofac/`] });
    assert.equal(ofac?.status, 'not_modified');
    assert.deepEqual(
      served('/ofac/sdn.csv').map((r) => [r.status, Boolean(r.ifNoneMatch)]),
      [[304, true]],
    );
    const after = (await database.db.listChecks.confirmations()).find((c) => c.list === 'OFAC_SDN');
    assert.ok(after && before && after.confirmedAt >= before.confirmedAt);
    assert.equal(after?.versionId, before?.versionId);
  });

  test('--force reads every file again; the same content makes no version', async () => {
    const [ofac] = await update({ ofacSdn: [`${publisher.base}/ofac/`] }, { force: true });
    assert.equal(ofac?.status, 'unchanged');
    assert.deepEqual(
      served('/ofac/sdn.csv').map((r) => [r.status, r.ifNoneMatch]),
      [[200, undefined]],
    );
  });

  test('a publisher without ETags: the same bytes are recognised by their SHA-256 and not read again', async () => {
    const [first] = await update({ bisDpl: [`${publisher.base}/bis/dpl.txt`] });
    assert.equal(first?.status, 'imported', first?.error);
    const [second] = await update({ bisDpl: [`${publisher.base}/bis/dpl.txt`] });
    assert.equal(second?.status, 'unchanged');
    assert.deepEqual(second?.lists, [], 'nothing was parsed');
  });

  test('a file that parses to far fewer entries is refused, the active version stays, and the check counts as failed', async () => {
    const active = await database.db.lists.activeVersions();
    const [ofac] = await update({ ofacSdn: [`${publisher.base}/shrunk/`] });
    assert.equal(ofac?.status, 'failed');
    assert.match(ofac?.error ?? '', /OFAC_SDN: the new file has 1 entities, the active version lv_\w+ has 3 \(below 50%\)/);
    assert.deepEqual(await database.db.lists.activeVersions(), active);
    assert.equal((await check('ofacSdn'))?.consecutiveFailures, 1);
    const [allowed] = await update({ ofacSdn: [`${publisher.base}/shrunk/`] }, { allowShrink: true });
    assert.equal(allowed?.lists[0]?.status, 'imported');
    assert.equal((await check('ofacSdn'))?.consecutiveFailures, 0);
  });

  test('a 404 fails its location at once, without retries; the check is recorded with the URL; other sources go on', async () => {
    const outcomes = await update({ unSc: [`${publisher.base}/gone/consolidated.xml`], bisDpl: [`${publisher.base}/bis/dpl.txt`] });
    assert.match(outcomes[0]?.error ?? '', /gone\/consolidated\.xml: the server answered 404 Not Found$/);
    assert.equal(served('/gone/consolidated.xml').length, 1);
    assert.equal(outcomes[1]?.status, 'unchanged');
    const recorded = await check('unSc');
    assert.deepEqual([recorded?.consecutiveFailures, recorded?.lastError?.includes('/gone/consolidated.xml')], [1, true]);
  });

  test("a source's URLs are tried in order: an HTML page in place of the file is refused and the next URL serves it", async () => {
    publisher.set('/home/dpl.txt', { kind: 'html' });
    const [dpl] = await update({ bisDpl: [`${publisher.base}/home/dpl.txt`, `${publisher.base}/bis/dpl.txt`] }, { force: true });
    assert.equal(dpl?.status, 'unchanged', dpl?.error);
    assert.equal(dpl?.url, `${publisher.base}/bis/dpl.txt`);
    assert.deepEqual(dpl?.failures, [
      {
        url: `${publisher.base}/home/dpl.txt`,
        error: `${publisher.base}/home/dpl.txt: an HTML page ("Bureau of Industry and Security") came in place of dpl.txt`,
      },
    ]);
  });

  test('every URL failing keeps the active version and names each URL and what was wrong', async () => {
    publisher.set('/cut/consolidated.xml', { kind: 'cut', body: fixture('un/consolidated.xml') });
    const xml = fixture('un/consolidated.xml');
    publisher.serve('/half/consolidated.xml', xml.subarray(0, Math.floor(xml.length * 0.8)));
    publisher.serve('/empty/consolidated.xml', Buffer.alloc(0));
    const [un] = await update({ unSc: ['cut', 'half', 'empty'].map((p) => `${publisher.base}/${p}/consolidated.xml`) }, { retries: 0 });
    assert.equal(un?.status, 'failed');
    const errors = un?.failures.map((f) => f.error.replace(`${publisher.base}/`, '')) ?? [];
    assert.equal(errors.length, 3);
    assert.match(errors[0] ?? '', /^cut\/consolidated\.xml: the connection broke after \d+ of the \d+ bytes announced: truncated/);
    assert.equal(errors[1], 'half/consolidated.xml: consolidated.xml looks truncated: its root element <CONSOLIDATED_LIST> is never closed');
    assert.equal(errors[2], 'empty/consolidated.xml: the body is empty');
    assert.match(un?.error ?? '', /cut\/consolidated\.xml: .*; then .*half\/consolidated\.xml: .*; then .*empty\/consolidated\.xml: the body is empty$/);
  });

  test("redirects are followed within the publisher's hosts and refused to another host", async () => {
    publisher.set('/moved/consolidated.xml', { kind: 'redirect', to: '/un/consolidated.xml' });
    const [moved] = await update({ unSc: [`${publisher.base}/moved/consolidated.xml`] });
    assert.ok(moved?.status === 'imported' || moved?.status === 'unchanged', moved?.error);
    publisher.set('/away/consolidated.xml', { kind: 'redirect', to: `${publisher.base.replace('127.0.0.1', 'localhost')}/un/consolidated.xml` });
    const [away] = await update({ unSc: [`${publisher.base}/away/consolidated.xml`] });
    assert.match(away?.error ?? '', /refused a redirect to http:\/\/localhost:\d+\/un\/consolidated\.xml: localhost is not one of the publisher's hosts/);
  });

  test('a publisher that refuses other clients says a browser-like User-Agent may be needed', async () => {
    publisher.requireBrowser('/strict/');
    publisher.serve('/strict/consolidated.xml', fixture('un/consolidated.xml'));
    const [un] = await update({ unSc: [`${publisher.base}/strict/consolidated.xml`] });
    assert.match(un?.error ?? '', /403 Forbidden; this publisher may require a browser-like User-Agent/);
    assert.match(served('/strict/consolidated.xml')[0]?.userAgent ?? '', /^gatehouse\//);
  });

  test("a list another configured source is the authority for is left to it (the CSL's copy of the DPL), and taken when that source is off", async () => {
    // Served as the CSL file: the DPL's header makes it read as the DPL, which is all this needs.
    const both = await update({ bisDpl: [`${publisher.base}/bis/dpl.txt`], csl: [`${publisher.base}/bis/dpl.txt`] }, { force: true });
    assert.deepEqual(
      both.map((s: SourceOutcome) => [s.source, s.lists.map((o) => o.list)]),
      [
        ['csl', []],
        ['bisDpl', ['BIS_DPL']],
      ],
    );
    const alone = await update({ csl: [`${publisher.base}/bis/dpl.txt`] }, { force: true });
    assert.deepEqual(
      alone.map((s) => [s.source, s.lists.map((o) => o.list)]),
      [['csl', ['BIS_DPL']]],
    );
  });

  test('a server that never answers is given up after the timeout and the retries', async () => {
    publisher.set('/slow/dpl.txt', { kind: 'hang' });
    const started = Date.now();
    const [slow] = await update({ bisDpl: [`${publisher.base}/slow/dpl.txt`] }, { timeoutMs: 200, retries: 1 });
    assert.match(slow?.error ?? '', /slow\/dpl\.txt: no complete answer within the timeout \(after 2 attempts\)/);
    assert.ok(Date.now() - started < 3_000);
  });
});
