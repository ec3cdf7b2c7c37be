/**
 * Importing a watchlist's entries from a CSV file in the console, posted as a browser posts a
 * file (multipart/form-data): added and changed entries named on the version the import made;
 * a file refused whole with every problem by its row and column; a replace that would remove too
 * many entries refused in words, and allowed when asked; a file that changes nothing; a file that
 * is not UTF-8; and the roles and CSRF of every other form. A refused import changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type ConsoleClient, pageText, signedInUser } from '../../helpers/console-client.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';

let harness: TestApp;
let org: TestTenant;
let adjudicator: ConsoleClient;
let viewer: ConsoleClient;

const HEADER = 'external_id,type,name,aliases,countries,identifiers,reason,severity\r\n';
const rows = (count: number, from = 0) =>
  Array.from({ length: count }, (_, i) => `EMP-${from + i},person,Former Employee ${from + i},,US,,Terminated.,yellow\r\n`).join('');

async function newWatchlist(slug: string): Promise<string> {
  const response = await harness.app.inject({ method: 'POST', url: '/api/v1/watchlists', headers: org.headers, payload: { slug, name: `List ${slug}` } });
  assert.equal(response.statusCode, 201, response.body);
  return response.json().id;
}

/** Opens the import page (for its CSRF token) and posts the file. */
async function importFile(watchlistId: string, csv: string | Uint8Array, form: Record<string, string | null> = {}, as = adjudicator) {
  await as.get(`/console/watchlists/${watchlistId}/import`);
  return as.postFile(`/console/watchlists/${watchlistId}/import`, { mode: 'upsert', ...form }, { field: 'file', name: 'entries.csv', content: csv });
}

const state = async (watchlistId: string) =>
  (await harness.database.owner<{ version: number; entry_count: number }>('SELECT version, entry_count FROM watchlists WHERE id = $1', [watchlistId]))[0];

before(async () => {
  harness = await buildTestApp();
  org = await createTenant(harness.database.owner, { tier: 'defense', admin: true });
  adjudicator = await signedInUser(harness, org.organizationId, 'desk@example.com', 'adjudicator');
  viewer = await signedInUser(harness, org.organizationId, 'watcher@example.com', 'viewer');
});
after(() => harness.close());

describe('importing a CSV file', () => {
  test('adds and changes entries as one version, whose page names them', async () => {
    const id = await newWatchlist('former-staff');
    const first = await importFile(id, HEADER + rows(2));
    assert.equal(first.statusCode, 303, pageText(first.body));
    assert.equal(first.headers.location, `/console/watchlists/${id}/versions/2?done=imported`);
    const version = pageText((await adjudicator.get(first.headers.location as string)).body);
    assert.match(version, /The file is imported: 2 added, 0 changed, 0 removed\./);
    assert.match(version, /What Import \(add and change\) Who desk@example\.com .*Added \(2\) Former Employee 0 yellow active Former Employee 1 yellow active/);

    const changed = `${HEADER}EMP-1,person,Former Employee 1,,US,passport:X1234567:US,Terminated; threats.,red\r\n${rows(1, 2)}`;
    const second = await importFile(id, changed);
    assert.equal(second.headers.location, `/console/watchlists/${id}/versions/3?done=imported`);
    const named = pageText((await adjudicator.get(second.headers.location as string)).body);
    assert.match(named, /1 added, 1 changed, 0 removed.*Added \(1\) Former Employee 2 .*Changed \(1\) Former Employee 1 red active/);
    assert.deepEqual(await state(id), { version: 3, entry_count: 3 });
    const [audit] = await harness.database.owner<{ actor_id: string; details: { mode: string; format: string } }>(
      "SELECT actor_id, details FROM audit_events WHERE action = 'watchlist.entries_imported' AND target_id = $1 ORDER BY seq DESC LIMIT 1",
      [id],
    );
    assert.deepEqual([audit?.actor_id, audit?.details.mode, audit?.details.format], ['desk@example.com', 'upsert', 'csv']);
  });

  test('a file with bad rows is refused whole, every problem listed by its row and column', async () => {
    const id = await newWatchlist('refused');
    await importFile(id, HEADER + rows(1));
    const before = await state(id);
    const bad = [
      HEADER,
      'A-1,person,Good Row,,US,,Fine.,red\r\n',
      'A-2,person,Bad Country,,XX,,Fine.,red\r\n',
      'A-3,person,Bad Severity,,US,,Fine.,black\r\n',
      '\r\n',
      'A-4,person,No Reason,,US,,,red\r\n',
      'A-5,person,Bad Identifier,,US,passport,Fine.,red\r\n',
    ].join('');
    const refused = await importFile(id, bad);
    assert.equal(refused.statusCode, 400);
    const box = /<div class="notice notice-alert" role="alert">[^]*?<\/table>/.exec(refused.body)?.[0] ?? '';
    const problems = [...box.matchAll(/<tr><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
    assert.match(pageText(box), /The file was refused; nothing was changed\. It has a problem\./);
    assert.deepEqual(
      problems,
      ['7 identifiers &quot;passport&quot; is not type:value or type:value:country'],
      'a cell that cannot be read refuses the file first',
    );

    const refusedAgain = await importFile(id, bad.replace('passport,Fine', ',Fine'));
    const again = /<table class="problems">[^]*?<\/table>/.exec(refusedAgain.body)?.[0] ?? '';
    const listed = [...again.matchAll(/<tr><td>([^<]*)<\/td><td>([^<]*)<\/td>/g)].map((m) => `${m[1]}:${m[2]}`);
    assert.deepEqual(listed, ['3:countries', '4:severity', '6:reason'], 'rows as a spreadsheet numbers them, the blank line counted');
    assert.match(pageText(again), /3 countries "XX" is not an ISO 3166-1 alpha-2 country code 4 severity must be one of: "red", "orange", "yellow" 6 reason /);
    assert.match(pageText(refusedAgain.body), /It has 3 problems\./);
    assert.match(refusedAgain.body, /id="mode-upsert" name="mode" value="upsert" checked/, 'the mode chosen is kept');
    assert.deepEqual(await state(id), before);
  });

  test('a replace that would remove too many entries is refused in words; allowed, it removes them', async () => {
    const id = await newWatchlist('shrink');
    await importFile(id, HEADER + rows(10));
    const refused = await importFile(id, HEADER + rows(2), { mode: 'replace' });
    assert.equal(refused.statusCode, 409);
    assert.match(
      pageText(refused.body),
      /Nothing was changed\. Replacing the entries with this file would remove 8 of the watchlist’s 10 entries \(the file holds 2 rows\), and at most 5 may be removed at once\. .*If they really go, tick “Allow removing more than the limit”, choose the file again and import it\./,
    );
    assert.match(refused.body, /id="mode-replace" name="mode" value="replace" checked/);
    assert.deepEqual(await state(id), { version: 2, entry_count: 10 });
    const allowed = await importFile(id, HEADER + rows(2), { mode: 'replace', allow_shrink: 'on' });
    assert.equal(allowed.headers.location, `/console/watchlists/${id}/versions/3?done=imported`);
    assert.match(
      pageText((await adjudicator.get(allowed.headers.location as string)).body),
      /0 added, 0 changed, 8 removed.*Removed \(8\) Former Employee 2 yellow removed/,
    );
  });

  test('a file that changes nothing makes no version, and says so', async () => {
    const id = await newWatchlist('unchanged');
    await importFile(id, HEADER + rows(3));
    const same = await importFile(id, HEADER + rows(3));
    assert.equal(same.headers.location, `/console/watchlists/${id}/import?done=unchanged`);
    assert.match(
      pageText((await adjudicator.get(same.headers.location as string)).body),
      /Nothing changed: every row of the file is an entry the watchlist holds as it is\./,
    );
    assert.deepEqual(await state(id), { version: 2, entry_count: 3 });
  });

  test('no file, or a file that is not UTF-8, is refused and changes nothing', async () => {
    const id = await newWatchlist('encodings');
    const empty = await importFile(id, '');
    assert.equal(empty.statusCode, 400);
    assert.match(pageText(empty.body), /Choose the CSV file to import\./);
    const latin1 = Buffer.from(`${HEADER}E-1,person,Jos\xe9 Pe\xf1a,,MX,,Barred.,red\r\n`, 'latin1');
    const refused = await importFile(id, latin1);
    assert.equal(refused.statusCode, 400);
    assert.match(pageText(refused.body), /The file is not UTF-8 text\. Save it as UTF-8/);
    assert.deepEqual(await state(id), { version: 1, entry_count: 0 });
  });

  test('a viewer may not import, nor may a form without its CSRF token', async () => {
    const id = await newWatchlist('guarded');
    await viewer.get(`/console/watchlists/${id}`);
    const byViewer = await viewer.postFile(`/console/watchlists/${id}/import`, { mode: 'upsert' }, { field: 'file', name: 'x.csv', content: HEADER + rows(1) });
    assert.equal(byViewer.statusCode, 403);
    const forged = await importFile(id, HEADER + rows(1), { _csrf: 'forged' });
    assert.equal(forged.statusCode, 403);
    assert.match(pageText(forged.body), /did not come from a console page of this server/);
    await adjudicator.get(`/console/watchlists/${id}/import`);
    const none = await adjudicator.postFile(
      `/console/watchlists/${id}/import`,
      { mode: 'upsert', _csrf: null },
      { field: 'file', name: 'x.csv', content: HEADER + rows(1) },
    );
    assert.equal(none.statusCode, 403);
    assert.deepEqual(await state(id), { version: 1, entry_count: 0 });
  });
});
