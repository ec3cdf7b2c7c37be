/**
 * A watchlist's entries imported in bulk as JSON (`PUT …/entries`): upsert and replace, rows
 * matched to entries by external id (or, without one, by their facts), what is unchanged not
 * written and an import that changes nothing no version, every problem refused with its pointer
 * and nothing stored, and the shrink guard of a replace.
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
  org = await createTenant(harness.database.owner, { tier: 'defense', admin: true });
  client = watchlistClient(harness, org);
});
after(() => harness.close());

const staff = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({
    external_id: `HR-${from + i}`,
    name: `Former Employee Number${from + i} Example`,
    reason: 'Employment terminated; badge not returned.',
    severity: 'orange',
  }));

const imported = async (watchlistId: string, mode: 'upsert' | 'replace', entries: unknown[], query = '') => {
  const response = await client.importJson(watchlistId, mode, entries, query);
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
};
const liveCount = async (watchlistId: string) =>
  (
    await harness.database.owner<{ n: number }>('SELECT count(*)::int AS n FROM watchlist_entries WHERE watchlist_id = $1 AND removed_at IS NULL', [
      watchlistId,
    ])
  )[0]?.n;

describe('an import in upsert mode', () => {
  test('adds, changes in place and leaves alone; the same import again changes nothing and makes no version', async () => {
    const { id } = await client.createWatchlist('upserted');
    const first = await imported(id, 'upsert', staff(10));
    assert.deepEqual(first, {
      object: 'watchlist_import',
      watchlist_id: id,
      mode: 'upsert',
      version: 2,
      added: 10,
      changed: 0,
      removed: 0,
      unchanged: 0,
      entry_count: 10,
    });
    const [before] = (await client.expect(200, 'GET', `/watchlists/${id}/entries?external_id=HR-3`)).data;

    const changedRows = staff(12).map((row, i) => (i === 3 ? { ...row, severity: 'red' } : row));
    const second = await imported(id, 'upsert', changedRows.slice(3));
    assert.deepEqual([second.version, second.added, second.changed, second.removed, second.unchanged, second.entry_count], [3, 2, 1, 0, 6, 12]);
    const [after] = (await client.expect(200, 'GET', `/watchlists/${id}/entries?external_id=HR-3`)).data;
    assert.deepEqual([after.id, after.severity, after.added_at, after.version], [before.id, 'red', before.added_at, 3], 'changed in place, keeping its id');

    const again = await imported(id, 'upsert', changedRows);
    assert.deepEqual([again.version, again.unchanged, again.entry_count], [null, 12, 12]);
    assert.equal((await client.expect(200, 'GET', `/watchlists/${id}`)).version, 3, 'no version');

    const version = await client.expect(200, 'GET', `/watchlists/${id}/versions/3`);
    assert.equal(version.change, 'entries_upserted');
    assert.deepEqual([version.entries.added.length, version.entries.changed, version.entries.removed], [2, [before.id], []]);
    const [audit] = (await client.audits(org.organizationId, ['watchlist.entries_imported'])).filter((a) => a.target_id === id && a.details.version === 3);
    assert.deepEqual(audit?.details, {
      version: 3,
      change: 'entries_upserted',
      added: 2,
      changed: 1,
      removed: 0,
      entry_count: 12,
      mode: 'upsert',
      format: 'json',
      unchanged: 6,
    });
  });

  test('matches a row without an external id to the entry with the same facts, so it is not added twice', async () => {
    const { id } = await client.createWatchlist('keyless');
    const rows = [
      { name: 'Sam Example Doyle', reason: 'Threatened the front desk.', severity: 'red' },
      { name: 'Sam Example Doyle', reason: 'Threatened the front desk.', severity: 'red', external_id: 'C-1' },
    ];
    assert.equal((await imported(id, 'upsert', rows)).added, 2, 'one keyed, one not: two entries');
    const again = await imported(id, 'upsert', rows);
    assert.deepEqual([again.added, again.unchanged, again.version], [0, 2, null]);
    const reworded = await imported(id, 'upsert', [{ ...rows[0], reason: 'Threatened staff.' }]);
    assert.equal(reworded.added, 1, 'without a key, other facts are another entry');
  });
});

describe('an import in replace mode', () => {
  test('also removes what the import does not hold, within the shrink limit', async () => {
    const { id } = await client.createWatchlist('replaced');
    await imported(id, 'upsert', staff(20));
    const replaced = await imported(id, 'replace', staff(20).slice(2));
    assert.deepEqual([replaced.removed, replaced.unchanged, replaced.entry_count], [2, 18, 18]);
    const version = await client.expect(200, 'GET', `/watchlists/${id}/versions/${replaced.version}`);
    assert.equal(version.change, 'entries_replaced');
    const removed = await client.expect(200, 'GET', `/watchlists/${id}/entries?status=removed`);
    assert.deepEqual(removed.data.map((e: { id: string }) => e.id).sort(), [...version.entries.removed].sort());
    assert.deepEqual(
      removed.data.map((e: { external_id: string }) => e.external_id),
      ['HR-0', 'HR-1'],
    );
  });

  test('refuses to remove more than the limit, naming the counts, and changes nothing; allow_shrink lifts it', async () => {
    const { id } = await client.createWatchlist('shrinking');
    await imported(id, 'upsert', staff(60));
    const refused = await client.importJson(id, 'replace', staff(10));
    assert.equal(refused.statusCode, 409);
    const problem = refused.json();
    assert.equal(problem.code, 'watchlist_shrink_refused');
    assert.deepEqual(
      [problem.live_entries, problem.entries_in_request, problem.would_remove, problem.removal_limit, problem.limit_percent],
      [60, 10, 50, 6, 10],
    );
    assert.equal(await liveCount(id), 60, 'nothing removed');
    assert.equal((await client.expect(200, 'GET', `/watchlists/${id}`)).version, 2, 'no version');

    const withinLimit = await imported(id, 'replace', staff(54));
    assert.equal(withinLimit.removed, 6, '10% of 60');
    const allowed = await imported(id, 'replace', staff(10), '&allow_shrink=true');
    assert.deepEqual([allowed.removed, allowed.entry_count], [44, 10]);
  });

  test('never empties a watchlist without allow_shrink, however small', async () => {
    const { id } = await client.createWatchlist('emptied');
    await imported(id, 'upsert', staff(3));
    const refused = await client.importJson(id, 'replace', []);
    assert.deepEqual([refused.statusCode, refused.json().removal_limit], [409, 2]);
    assert.equal((await imported(id, 'replace', [], '&allow_shrink=true')).entry_count, 0);
  });
});

describe('a bad import', () => {
  test('is refused whole, every problem of every row named by its pointer, and nothing is stored', async () => {
    const { id } = await client.createWatchlist('refused-json');
    const good = staff(3);
    const rows = [
      ...good,
      { ...staff(1, 100)[0], external_id: 'HR-1' }, // 3: repeats row 1's key
      { name: 'Keyless Example', reason: 'x', severity: 'red' }, // 4
      { name: 'Keyless Example', reason: 'x', severity: 'red' }, // 5: the same entry as row 4
      { name: '***', reason: 'x', severity: 'red', countries: ['US', 'QQ'] }, // 6: no letters; not a country
      { name: 'Dated Example', reason: 'x', severity: 'red', dates_of_birth: ['2999'] }, // 7: in the future
      { type: 'organization', name: 'Example Org LLC', reason: 'x', severity: 'red', identifiers: [{ type: 'passport', value: 'A1' }] }, // 8
      { name: 'Piped | Name', reason: ' ', severity: 'red' }, // 9: a list separator in a name; a blank reason
    ];
    const refused = await client.importJson(id, 'upsert', rows);
    assert.equal(refused.statusCode, 400);
    assert.deepEqual(client.pointers(refused), [
      '/entries/3/external_id',
      '/entries/5',
      '/entries/6/name',
      '/entries/6/countries/1',
      '/entries/7/dates_of_birth/0',
      '/entries/8/identifiers/0/type',
      '/entries/9/name',
      '/entries/9/reason',
    ]);
    assert.match(refused.json().detail, /Nothing was changed/);

    const schema = await client.importJson(id, 'upsert', [
      ...good,
      { name: 'No Severity', reason: 'x' },
      { name: 'Bad Severity', reason: 'x', severity: 'black', shoe_size: 44 },
      { name: 'Bad Expiry', reason: 'x', severity: 'red', expires_at: '31/12/2030' },
    ]);
    assert.deepEqual(client.pointers(schema).sort(), ['/entries/3/severity', '/entries/4/severity', '/entries/4/shoe_size', '/entries/5/expires_at']);
    const mode = await client.call('PUT', `/watchlists/${id}/entries?mode=merge`, { entries: good });
    assert.deepEqual(client.pointers(mode), ['/mode']);
    assert.equal(await liveCount(id), 0);
    assert.equal((await client.expect(200, 'GET', `/watchlists/${id}`)).version, 1);
  });

  test('a new entry must expire in the future; an existing one keeps its past expiry', async () => {
    const { id } = await client.createWatchlist('expiring');
    const [row] = staff(1);
    await imported(id, 'upsert', [row]);
    const expired = { ...row, expires_at: '2021-01-01T00:00:00.000Z' };
    assert.equal((await imported(id, 'upsert', [expired])).changed, 1, 'an existing entry may be expired by an import');
    assert.equal((await imported(id, 'replace', [expired])).version, null, 'and imported again unchanged');
    const refused = await client.importJson(id, 'upsert', [expired, { ...staff(1, 50)[0], expires_at: '2021-01-01T00:00:00Z' }]);
    assert.deepEqual([refused.statusCode, client.pointers(refused)], [400, ['/entries/1/expires_at']]);
  });

  test('more entries than an import holds is refused for that alone', async () => {
    const { id } = await client.createWatchlist('too-many');
    const rows = Array.from({ length: 50_001 }, () => ({ name: 'N', reason: 'r', severity: 'red' }));
    const refused = await client.importJson(id, 'upsert', rows);
    assert.deepEqual([refused.statusCode, client.pointers(refused)], [400, ['/entries']]);
  });
});
