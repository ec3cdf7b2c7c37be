/**
 * A watchlist's entries one at a time through the API: added with every field and who added it,
 * every bad field refused with its pointer, listed with filters and pages, changed and removed
 * as versions (what each added, changed and removed, and the hash of what the watchlist held),
 * audited without names, and expiry.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sha256Hex } from '../../../src/sha256.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { watchlistClient } from './watchlist-client.ts';

let harness: TestApp;
let org: TestTenant;
let client: ReturnType<typeof watchlistClient>;

before(async () => {
  harness = await buildTestApp();
  // Enterprise: its audit export (which writes pending reads first) shows the reads of entries.
  org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
  client = watchlistClient(harness, org);
});
after(() => harness.close());

const FULL = {
  external_id: 'HR-20931',
  type: 'person',
  name: '  Jordan   Example Reyes ',
  aliases: ['Jordan E. Reyes', 'J. Reyes', 'J. Reyes'],
  dates_of_birth: ['1984-06-02', '1984'],
  countries: ['us', 'MX'],
  identifiers: [{ type: 'national_id', value: '123-45-6789', country: 'us' }],
  reason: 'Employment terminated.\nMade threats against staff.',
  severity: 'red',
  expires_at: '2099-01-01T00:00:00.000Z',
};

describe('adding an entry', () => {
  test('stores every field as given (cleaned), who added it and when, its hash, at the next version', async () => {
    const { id: watchlistId } = await client.createWatchlist('added');
    const response = await client.call('POST', `/watchlists/${watchlistId}/entries`, FULL);
    assert.equal(response.statusCode, 201, response.body);
    const entry = response.json();
    assert.equal(response.headers.location, `/api/v1/watchlists/${watchlistId}/entries/${entry.id}`);
    assert.match(entry.id, /^wle_[0-9a-z]{26}$/);
    assert.deepEqual(
      {
        name: entry.name,
        aliases: entry.aliases,
        countries: entry.countries,
        identifiers: entry.identifiers,
        reason: entry.reason,
        status: entry.status,
        added_by: entry.added_by,
        version: entry.version,
      },
      {
        name: 'Jordan Example Reyes',
        aliases: ['Jordan E. Reyes', 'J. Reyes'],
        countries: ['US', 'MX'],
        identifiers: [{ type: 'national_id', value: '123-45-6789', country: 'US' }],
        reason: 'Employment terminated.\nMade threats against staff.',
        status: 'active',
        added_by: `api_key:${org.keyId}`,
        version: 2,
      },
    );
    assert.equal(entry.updated_by, entry.added_by);
    assert.match(entry.sha256, /^[0-9a-f]{64}$/);
    assert.equal((await client.expect(200, 'GET', `/watchlists/${watchlistId}`)).entry_count, 1);

    // The same facts in another watchlist hash alike; other facts do not.
    const { id: other } = await client.createWatchlist('added-again');
    assert.equal((await client.addEntry(other, { ...FULL, name: 'Jordan Example Reyes', external_id: 'X-1' })).sha256, entry.sha256);
    assert.notEqual((await client.addEntry(other, { ...FULL, severity: 'orange', external_id: 'X-2' })).sha256, entry.sha256);
  });

  test('refuses every bad field, each named by its pointer, and stores nothing', async () => {
    const { id } = await client.createWatchlist('refusals');
    const semantic = await client.call('POST', `/watchlists/${id}/entries`, {
      type: 'person',
      name: '   ',
      aliases: ['--', 'Has | Bar'],
      dates_of_birth: ['2999-01-01', '1984-02-30', '1850'],
      countries: ['QQ'],
      identifiers: [
        { type: 'imo', value: '9187629' },
        { type: 'passport', value: 'A12|34', country: 'ZZ' },
      ],
      reason: ' ',
      severity: 'red',
    });
    assert.equal(semantic.statusCode, 400);
    assert.deepEqual(client.pointers(semantic), [
      '/name',
      '/aliases/0',
      '/aliases/1',
      '/dates_of_birth/0',
      '/dates_of_birth/1',
      '/dates_of_birth/2',
      '/countries/0',
      '/identifiers/0/type',
      '/identifiers/1/country',
      '/identifiers/1/value',
      '/reason',
    ]);
    const schema = await client.call('POST', `/watchlists/${id}/entries`, {
      type: 'ship',
      name: 'Fine Name',
      severity: 'purple',
      dates_of_birth: ['June 1984'],
      expires_at: 'tomorrow',
      colour: 'red',
    });
    assert.deepEqual(client.pointers(schema).sort(), ['/colour', '/dates_of_birth/0', '/expires_at', '/reason', '/severity', '/type']);
    const organization = await client.call('POST', `/watchlists/${id}/entries`, {
      type: 'organization',
      name: 'Example Trading LLC',
      dates_of_birth: ['1990'],
      reason: 'x',
      severity: 'red',
    });
    assert.deepEqual(client.pointers(organization), ['/dates_of_birth']);
    const vessel = await client.call('POST', `/watchlists/${id}/entries`, {
      type: 'vessel',
      name: 'Example Star',
      identifiers: [{ type: 'imo', value: 'IMO 9187620' }],
      reason: 'x',
      severity: 'red',
    });
    assert.deepEqual(client.pointers(vessel), ['/identifiers/0/value'], 'an IMO number that fails its check digit');
    const past = await client.call('POST', `/watchlists/${id}/entries`, {
      name: 'Past Expiry',
      reason: 'x',
      severity: 'red',
      expires_at: '2020-01-01T00:00:00Z',
    });
    assert.deepEqual([past.statusCode, client.pointers(past)], [400, ['/expires_at']]);
    assert.equal((await client.expect(200, 'GET', `/watchlists/${id}`)).version, 1, 'no version');
  });

  test('entries added at once each get a version of their own, in order, none lost (the row lock orders them)', async () => {
    const { id } = await client.createWatchlist('concurrent');
    const added = await Promise.all(Array.from({ length: 8 }, (_, i) => client.addEntry(id, { name: `Concurrent Example ${i}` })));
    assert.deepEqual(
      added.map((e) => e.version).sort((a, b) => a - b),
      [2, 3, 4, 5, 6, 7, 8, 9],
    );
    const watchlist = await client.expect(200, 'GET', `/watchlists/${id}`);
    assert.deepEqual([watchlist.version, watchlist.entry_count], [9, 8]);
    for (const entry of added) {
      const version = await client.expect(200, 'GET', `/watchlists/${id}/versions/${entry.version}`);
      assert.deepEqual([version.entries.added, version.entry_count], [[entry.id], entry.version - 1]);
    }
  });

  test('an external id another entry holds answers 409 naming that entry; a removed one frees it', async () => {
    const { id } = await client.createWatchlist('keys');
    const first = await client.addEntry(id, { name: 'First Holder', external_id: 'HR-7' });
    const second = await client.call('POST', `/watchlists/${id}/entries`, { name: 'Second Holder', external_id: 'HR-7', reason: 'x', severity: 'red' });
    assert.deepEqual([second.statusCode, second.json().code, second.json().entry_id], [409, 'conflict', first.id]);
    await client.expect(200, 'DELETE', `/watchlists/${id}/entries/${first.id}`);
    await client.addEntry(id, { name: 'Second Holder', external_id: 'HR-7' });
  });
});

describe('listing entries', () => {
  let watchlistId: string;
  const ids: Record<string, string> = {};
  before(async () => {
    watchlistId = (await client.createWatchlist('listed')).id;
    ids.reyes = (await client.addEntry(watchlistId, { name: 'Jordan Reyes', aliases: ['Джордан Рейес'], severity: 'red', external_id: 'HR-1' })).id;
    ids.trading = (await client.addEntry(watchlistId, { type: 'organization', name: 'Reyes 100% Trading', severity: 'orange' })).id;
    ids.vessel = (await client.addEntry(watchlistId, { type: 'vessel', name: 'Example Star', severity: 'yellow' })).id;
    ids.expiring = (await client.addEntry(watchlistId, { name: 'Avery Example Quinn', severity: 'yellow', expires_at: '2099-01-01T00:00:00Z' })).id;
    ids.removed = (await client.addEntry(watchlistId, { name: 'Removed Reyes', severity: 'red' })).id;
    await client.expect(200, 'DELETE', `/watchlists/${watchlistId}/entries/${ids.removed}`);
    // Expired since: expiry may be set in the past on an existing entry.
    await client.expect(200, 'PATCH', `/watchlists/${watchlistId}/entries/${ids.expiring}`, { expires_at: '2021-01-01T00:00:00Z' });
  });
  const listed = async (query: string) => (await client.expect(200, 'GET', `/watchlists/${watchlistId}/entries${query}`)).data.map((e: { id: string }) => e.id);

  test('filters by name (any of its names, case-insensitively, literally), severity, type, status, external id and change time', async () => {
    assert.deepEqual(await listed(''), [ids.reyes, ids.trading, ids.vessel, ids.expiring], 'without status: not removed');
    assert.deepEqual(await listed('?q=REYES'), [ids.reyes, ids.trading]);
    assert.deepEqual(await listed(`?q=${encodeURIComponent('рейес')}`), [ids.reyes], 'an alias, in another script');
    assert.deepEqual(await listed(`?q=${encodeURIComponent('100%')}`), [ids.trading]);
    assert.deepEqual(await listed(`?q=${encodeURIComponent('_')}`), [], 'an underscore is an underscore');
    assert.deepEqual(await listed('?severity=yellow'), [ids.vessel, ids.expiring]);
    assert.deepEqual(await listed('?type=organization'), [ids.trading]);
    assert.deepEqual(await listed('?status=active'), [ids.reyes, ids.trading, ids.vessel]);
    assert.deepEqual(await listed('?status=expired'), [ids.expiring]);
    assert.deepEqual(await listed('?status=removed&q=reyes'), [ids.removed]);
    assert.deepEqual(await listed('?external_id=HR-1'), [ids.reyes]);
    const vessel = await client.expect(200, 'GET', `/watchlists/${watchlistId}/entries/${ids.vessel}`);
    assert.deepEqual(await listed(`?updated_after=${encodeURIComponent(vessel.updated_at)}`), [ids.expiring], 'changed after the vessel was added');
    const expired = await client.expect(200, 'GET', `/watchlists/${watchlistId}/entries/${ids.expiring}`);
    assert.equal(expired.status, 'expired');
  });

  test('pages by cursor, and refuses a bad filter naming it', async () => {
    const first = await client.expect(200, 'GET', `/watchlists/${watchlistId}/entries?limit=3`);
    const second = await client.expect(200, 'GET', `/watchlists/${watchlistId}/entries?limit=3&cursor=${first.next_cursor}`);
    assert.deepEqual(
      [...first.data, ...second.data].map((e: { id: string }) => e.id),
      [ids.reyes, ids.trading, ids.vessel, ids.expiring],
    );
    assert.deepEqual([first.has_more, second.has_more], [true, false]);
    const bad = await client.call('GET', `/watchlists/${watchlistId}/entries?status=gone&severity=black&updated_after=yesterday`);
    assert.deepEqual(client.pointers(bad).sort(), ['/severity', '/status', '/updated_after']);
  });

  test("an entry is read only through its own watchlist; reads are audited, with the entries' ids", async () => {
    const { id: other } = await client.createWatchlist('elsewhere');
    assert.equal((await client.call('GET', `/watchlists/${other}/entries/${ids.reyes}`)).statusCode, 404);
    await client.expect(200, 'GET', `/watchlists/${watchlistId}/entries/${ids.reyes}`);
    const reads = await auditedReads();
    assert.ok(reads.some((r) => r.action === 'watchlist_entry.viewed' && r.target.id === ids.reyes));
    assert.ok(reads.some((r) => r.action === 'watchlist_entry.listed' && (r.details.ids as string[]).includes(ids.trading as string)));
    assert.ok(!JSON.stringify(reads).includes('Reyes'), 'ids, never names');
  });
});

describe('changing and removing an entry', () => {
  test('each is a version naming the entry; what changes nothing makes none; the entry keeps its id', async () => {
    const { id: watchlistId } = await client.createWatchlist('versioned');
    const entry = await client.addEntry(watchlistId, { name: 'Quinn Example Park', external_id: 'HR-9', countries: ['US'] });
    const changed = await client.expect(200, 'PATCH', `/watchlists/${watchlistId}/entries/${entry.id}`, { severity: 'orange', aliases: ['Q. Park'] });
    assert.deepEqual([changed.id, changed.severity, changed.aliases, changed.countries, changed.version], [entry.id, 'orange', ['Q. Park'], ['US'], 3]);
    assert.notEqual(changed.sha256, entry.sha256);
    const same = await client.expect(200, 'PATCH', `/watchlists/${watchlistId}/entries/${entry.id}`, { severity: 'orange' });
    assert.equal(same.version, 3, 'no version for no change');
    const wrongType = await client.call('PATCH', `/watchlists/${watchlistId}/entries/${entry.id}`, {
      type: 'vessel',
      identifiers: [{ type: 'passport', value: 'A1234567' }],
    });
    assert.deepEqual(client.pointers(wrongType), ['/identifiers/0/type'], 'checked as the whole entry will stand');

    const removed = await client.expect(200, 'DELETE', `/watchlists/${watchlistId}/entries/${entry.id}`);
    assert.deepEqual([removed.status, removed.version, typeof removed.removed_at], ['removed', 4, 'string']);
    assert.equal((await client.expect(200, 'DELETE', `/watchlists/${watchlistId}/entries/${entry.id}`)).version, 4, 'removing it again changes nothing');
    const editRemoved = await client.call('PATCH', `/watchlists/${watchlistId}/entries/${entry.id}`, { severity: 'red' });
    assert.deepEqual([editRemoved.statusCode, editRemoved.json().code], [409, 'conflict']);
    assert.equal((await client.expect(200, 'GET', `/watchlists/${watchlistId}`)).entry_count, 0);

    const versions = await Promise.all([2, 3, 4].map((n) => client.expect(200, 'GET', `/watchlists/${watchlistId}/versions/${n}`)));
    assert.deepEqual(
      versions.map((v) => [v.change, v.added, v.changed, v.removed, v.entry_count, v.entries]),
      [
        ['entries_added', 1, 0, 0, 1, { added: [entry.id], changed: [], removed: [] }],
        ['entries_changed', 0, 1, 0, 1, { added: [], changed: [entry.id], removed: [] }],
        ['entries_removed', 0, 0, 1, 0, { added: [], changed: [], removed: [entry.id] }],
      ],
    );
    assert.equal(versions[0].content_sha256, sha256Hex(`${entry.id}:${entry.sha256}`), 'what the watchlist held: its one entry');
    assert.equal(versions[1].content_sha256, sha256Hex(`${entry.id}:${changed.sha256}`));
    assert.equal(versions[2].content_sha256, sha256Hex(''));
    assert.equal((await client.call('GET', `/watchlists/${watchlistId}/versions/5`)).statusCode, 404);

    const audits = (await client.audits(org.organizationId, ['watchlist.entry_added', 'watchlist.entry_changed', 'watchlist.entry_removed'])).filter(
      (a) => a.target_id === watchlistId,
    );
    assert.deepEqual(
      audits.map((a) => [a.action, a.details.entry_id, a.details.version]),
      [
        ['watchlist.entry_added', entry.id, 2],
        ['watchlist.entry_changed', entry.id, 3],
        ['watchlist.entry_removed', entry.id, 4],
      ],
    );
    assert.ok(!JSON.stringify(audits).includes('Park'), 'no names in the audit trail');
  });

  test("a watchlist's versions page newest first", async () => {
    const { id } = await client.createWatchlist('paged-versions');
    for (const name of ['One Example', 'Two Example', 'Three Example']) await client.addEntry(id, { name });
    const first = await client.expect(200, 'GET', `/watchlists/${id}/versions?limit=2`);
    const second = await client.expect(200, 'GET', `/watchlists/${id}/versions?limit=2&cursor=${first.next_cursor}`);
    assert.deepEqual(
      [...first.data, ...second.data].map((v: { version: number }) => v.version),
      [4, 3, 2, 1],
    );
    assert.equal(first.data[0].entries, undefined, 'a page of versions carries counts; a version its entry ids');
  });
});

/** The reads of personal data in the organization's audit trail, as its export shows them (it writes the reads still pending first). */
async function auditedReads(): Promise<{ action: string; target: { id: string | null }; details: Record<string, unknown> }[]> {
  const response = await client.call('GET', '/audit/export?kind=read');
  assert.equal(response.statusCode, 200, response.body);
  return response.body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}
