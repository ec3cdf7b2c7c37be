/**
 * A watchlist's entries as CSV: an import with every column (in any order, quoted cells, a byte
 * order mark), every problem a file can have named by row and column, and the export, as CSV and
 * as JSON, that imports back changing nothing, formula-looking cells included.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { watchlistClient } from './watchlist-client.ts';

let harness: TestApp;
let org: TestTenant;
let client: ReturnType<typeof watchlistClient>;

before(async () => {
  harness = await buildTestApp();
  // Enterprise: its audit export shows the export's read.
  org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
  client = watchlistClient(harness, org);
});
after(() => harness.close());

const HEADER = 'external_id,type,name,aliases,dates_of_birth,countries,identifiers,reason,severity,expires_at';
const csv = (...lines: string[]) => `${lines.join('\r\n')}\r\n`;

const problems = (response: { statusCode: number; json(): unknown }) => {
  assert.equal(response.statusCode, 400);
  return (response.json() as { errors: { pointer: string; row?: number; column?: string }[] }).errors.map((e) => [e.row, e.column ?? null, e.pointer]);
};

describe('a CSV import', () => {
  test('reads every column, in any order, quoted cells and a byte order mark included', async () => {
    const { id } = await client.createWatchlist('csv-in');
    const file = `\uFEFF${csv(
      'severity,name,reason,countries,external_id,identifiers,aliases,dates_of_birth,type,expires_at',
      'red,Jordan Example Reyes,"Terminated; said ""I will be back"",\nthen left.",US|MX,HR-1,national_id:123-45-6789:US|other:A:1:,J. Reyes|Джордан Рейес,1984-06-02|1984,person,2099-01-01T00:00:00Z',
      '',
      'orange,Example Dynamics Trading LLC,Vendor under investigation.,ae,V-88,registration:CN-4403-77812,,,organization,',
    )}`;
    const response = await client.importCsv(id, 'upsert', file);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual([response.json().added, response.json().version], [2, 2]);
    const [person, vendor] = (await client.expect(200, 'GET', `/watchlists/${id}/entries`)).data;
    assert.deepEqual(
      [person.name, person.aliases, person.dates_of_birth, person.countries, person.identifiers, person.reason, person.expires_at],
      [
        'Jordan Example Reyes',
        ['J. Reyes', 'Джордан Рейес'],
        ['1984-06-02', '1984'],
        ['US', 'MX'],
        [
          { type: 'national_id', value: '123-45-6789', country: 'US' },
          { type: 'other', value: 'A:1' },
        ],
        'Terminated; said "I will be back",\nthen left.',
        '2099-01-01T00:00:00.000Z',
      ],
    );
    assert.deepEqual([vendor.type, vendor.countries, vendor.expires_at, vendor.aliases], ['organization', ['AE'], null, []]);
    const [audit] = (await client.audits(org.organizationId, ['watchlist.entries_imported'])).filter((a) => a.target_id === id);
    assert.equal(audit?.details.format, 'csv');
  });

  test('a file that cannot be read as entries is refused naming each row and column', async () => {
    const { id } = await client.createWatchlist('csv-shape');
    assert.deepEqual(problems(await client.importCsv(id, 'upsert', '')), [[undefined, null, '']], 'no body');
    assert.deepEqual(problems(await client.importCsv(id, 'upsert', '\r\n')), [[1, null, '']], 'no header');
    assert.deepEqual(problems(await client.importCsv(id, 'upsert', csv('name,reason,colour,name'))), [
      [1, 'colour', ''],
      [1, 'name', ''],
      [1, 'severity', ''],
    ]);
    const cells = await client.importCsv(
      id,
      'upsert',
      csv('name,reason,severity,identifiers', 'A Person,Why,red', 'B Person,Why,red,passport', 'C Person,Why,red,'),
    );
    assert.deepEqual(problems(cells), [
      [2, null, '/entries/0'],
      [3, 'identifiers', '/entries/1/identifiers'],
    ]);
    assert.deepEqual(
      problems(await client.importCsv(id, 'upsert', csv('name,reason,severity', 'A Person,"Why,red', 'B,x,red'))),
      [[2, null, '']],
      'a quote never closed',
    );
    assert.deepEqual(problems(await client.importCsv(id, 'upsert', csv('name,reason,severity', 'B Person,x,red', '"A" Person,x,red'))), [[3, null, '']]);
    const tooMany = await client.importCsv(id, 'upsert', csv('name,reason,severity', ...Array.from({ length: 50_001 }, () => 'N,r,red')));
    assert.deepEqual(problems(tooMany), [[undefined, null, '/entries']], 'more rows than an import holds: the file, in no row');
    assert.equal((await client.expect(200, 'GET', `/watchlists/${id}`)).version, 1);
  });

  test("refuses every bad cell, in the schema's terms and the entry's, naming its row and column, and stores nothing", async () => {
    const { id } = await client.createWatchlist('csv-cells');
    const response = await client.importCsv(
      id,
      'upsert',
      csv(
        HEADER,
        'HR-1,person,Good Example Row,,,,,Fine.,red,', // row 2: good
        'HR-2,ship,Bad Type,,,,,Why.,black,', // row 3: type, severity
        'HR-3,person,,,June 1984,,,Why.,red,soon', // row 4: name empty, date form, expiry form
        'HR-4,person,***,,2999-01-01,QQ,passport:A1:ZZ,Why.,red,', // row 5: no letters, future, country, issuing country
        'HR-1,person,Repeated Key,,,,,Why.,red,', // row 6: repeats row 2's key
        ',organization,Example Org LLC,,1990,,passport:A1234567,Why.,yellow,', // row 7: a date of birth; a passport
        'HR-8,person,Past Expiry,,,,,Why.,red,2020-01-01T00:00:00Z', // row 8: new, and expired
      ),
    );
    assert.deepEqual(problems(response), [
      [3, 'type', '/entries/1/type'],
      [3, 'severity', '/entries/1/severity'],
      [4, 'name', '/entries/2/name'],
      [4, 'dates_of_birth', '/entries/2/dates_of_birth/0'],
      [4, 'expires_at', '/entries/2/expires_at'],
      [5, 'name', '/entries/3/name'],
      [5, 'dates_of_birth', '/entries/3/dates_of_birth/0'],
      [5, 'countries', '/entries/3/countries/0'],
      [5, 'identifiers', '/entries/3/identifiers/0/country'],
      [6, 'external_id', '/entries/4/external_id'],
      [7, 'dates_of_birth', '/entries/5/dates_of_birth'],
      [7, 'identifiers', '/entries/5/identifiers/0/type'],
    ]);
    assert.match(response.json().errors[0].detail, /^row 3, column type: /);
    const expired = await client.importCsv(id, 'upsert', csv(HEADER, 'HR-8,person,Past Expiry,,,,,Why.,red,2020-01-01T00:00:00Z'));
    assert.deepEqual(problems(expired), [[2, 'expires_at', '/entries/0/expires_at']], 'found once the file is compared with the watchlist');
    assert.equal((await client.expect(200, 'GET', `/watchlists/${id}`)).entry_count, 0);
  });

  test('is UTF-8: a file declared in another charset is refused', async () => {
    const { id } = await client.createWatchlist('csv-charset');
    const response = await client.call('PUT', `/watchlists/${id}/entries?mode=upsert`, csv('name,reason,severity', 'A B,x,red'), org, {
      'content-type': 'text/csv; charset=latin1',
    });
    assert.deepEqual([response.statusCode, response.json().code], [415, 'unsupported_media_type']);
  });
});

describe('the export', () => {
  let watchlistId: string;
  before(async () => {
    watchlistId = (await client.createWatchlist('exported')).id;
    await client.addEntry(watchlistId, {
      external_id: 'HR-1',
      name: '=Example Formula Corp',
      aliases: ['+Plus Example', "'Quoted Example"],
      type: 'organization',
      countries: ['US'],
      identifiers: [{ type: 'other', value: 'A:1' }],
      reason: '-5 points: "late", again\nand again',
      severity: 'orange',
    });
    await client.addEntry(watchlistId, { name: 'Keyless Example Person', dates_of_birth: ['1990-02'], reason: '@desk: call security', severity: 'yellow' });
    const expiring = await client.addEntry(watchlistId, { name: 'Expired Example Person', external_id: 'HR-3', expires_at: '2099-01-01T00:00:00Z' });
    await client.expect(200, 'PATCH', `/watchlists/${watchlistId}/entries/${expiring.id}`, { expires_at: '2021-06-01T00:00:00Z' });
    const removed = await client.addEntry(watchlistId, { name: 'Removed Example Person' });
    await client.expect(200, 'DELETE', `/watchlists/${watchlistId}/entries/${removed.id}`);
  });

  test('as CSV: the import’s columns, every entry not removed, formula-looking cells guarded, and it imports back unchanged', async () => {
    const response = await client.call('GET', `/watchlists/${watchlistId}/entries/export`);
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'text/csv; charset=utf-8');
    assert.match(String(response.headers['content-disposition']), /attachment; filename="watchlist-wl_[0-9a-z]{26}\.csv"/);
    const lines = response.body.split('\r\n');
    assert.equal(lines[0], HEADER);
    assert.equal(
      lines[1],
      `HR-1,organization,'=Example Formula Corp,'+Plus Example|'Quoted Example,,US,other:A:1:,"'-5 points: ""late"", again\nand again",orange,`,
    );
    assert.match(response.body, /,'@desk: call security,yellow,/);
    assert.equal(lines.filter((line) => line.includes('Example Person')).length, 2, 'the expired entry, not the removed one');

    const version = (await client.expect(200, 'GET', `/watchlists/${watchlistId}`)).version;
    const back = await client.importCsv(watchlistId, 'replace', response.body);
    assert.equal(back.statusCode, 200, back.body);
    assert.deepEqual([back.json().version, back.json().unchanged, back.json().added, back.json().changed, back.json().removed], [null, 3, 0, 0, 0]);
    assert.equal((await client.expect(200, 'GET', `/watchlists/${watchlistId}`)).version, version);
  });

  test('as JSON (by format or Accept): the import’s body, and it imports back unchanged', async () => {
    const byFormat = await client.expect(200, 'GET', `/watchlists/${watchlistId}/entries/export?format=json`);
    const byAccept = await client.call('GET', `/watchlists/${watchlistId}/entries/export`, undefined, org, { accept: 'application/json' });
    assert.deepEqual(byAccept.json(), byFormat);
    assert.deepEqual(
      byFormat.entries.map((e: { name: string }) => e.name),
      ['=Example Formula Corp', 'Keyless Example Person', 'Expired Example Person'],
    );
    assert.deepEqual(byFormat.entries[0].identifiers, [{ type: 'other', value: 'A:1' }]);
    const back = await client.importJson(watchlistId, 'replace', byFormat.entries);
    assert.deepEqual([back.statusCode, back.json().version, back.json().unchanged], [200, null, 3]);
  });

  test('is audited as a read of the watchlist’s entries', async () => {
    const response = await client.call('GET', '/audit/export?kind=read&action=watchlist_entry.exported');
    const lines = response.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.ok(lines.length >= 2);
    assert.deepEqual([lines[0].target, lines[0].details.count, lines[0].details.format], [{ type: 'watchlist', id: watchlistId }, 3, 'csv']);
  });
});
