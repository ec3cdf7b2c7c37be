/**
 * Watchlists themselves through the API: created, listed in pages, changed, deleted softly (404
 * from then on, the slug free again, the history kept), each change a version, audited and
 * emitted; who may do what; and another organization's watchlists invisible.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKey, createTenant, personHeaders, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { type Caller, watchlistClient } from './watchlist-client.ts';

let harness: TestApp;
let org: TestTenant; // an admin key of a Defense organization: watchlists are Defense tier
let client: ReturnType<typeof watchlistClient>;

before(async () => {
  harness = await buildTestApp();
  org = await createTenant(harness.database.owner, { tier: 'defense', admin: true });
  client = watchlistClient(harness, org);
});
after(() => harness.close());

describe('a watchlist', () => {
  test('is created with its defaults, labelled ORG:<slug>, at version 1, and read back', async () => {
    const response = await client.call('POST', '/watchlists', { slug: 'do-not-admit', name: 'Do not admit', description: 'Kept by Security.' });
    assert.equal(response.statusCode, 201, response.body);
    const created = response.json();
    assert.match(created.id, /^wl_[0-9a-z]{26}$/);
    assert.equal(response.headers.location, `/api/v1/watchlists/${created.id}`);
    assert.deepEqual(
      { ...created, id: undefined, created_at: undefined, updated_at: undefined },
      {
        object: 'watchlist',
        id: undefined,
        slug: 'do-not-admit',
        list_code: 'ORG:do-not-admit',
        name: 'Do not admit',
        description: 'Kept by Security.',
        threshold: null,
        active: true,
        version: 1,
        entry_count: 0,
        created_by: `api_key:${org.keyId}`,
        created_at: undefined,
        updated_at: undefined,
      },
    );
    assert.deepEqual(await client.expect(200, 'GET', `/watchlists/${created.id}`), created);
    const [version] = (await client.expect(200, 'GET', `/watchlists/${created.id}/versions`)).data;
    assert.deepEqual([version.version, version.change, version.added, version.entry_count], [1, 'created', 0, 0]);
    assert.equal(version.content_sha256, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'an empty watchlist: the SHA-256 of nothing');
  });

  test('refuses a bad slug, name or threshold, and an unknown field, naming each', async () => {
    const refused = await client.call('POST', '/watchlists', { slug: 'Do Not Admit', name: '', threshold: 0.3, colour: 'red' });
    assert.equal(refused.statusCode, 400);
    assert.deepEqual(client.pointers(refused).sort(), ['/colour', '/name', '/slug', '/threshold']);
    const tooHigh = await client.call('POST', '/watchlists', { slug: 'ok', name: 'OK', threshold: 1.2 });
    assert.deepEqual(client.pointers(tooHigh), ['/threshold']);
    const empty = await client.call('PATCH', `/watchlists/${(await client.createWatchlist('patch-me')).id}`, {});
    assert.equal(empty.statusCode, 400, 'a PATCH changes something');
  });

  test('a slug is unique among live watchlists: a second one answers 409', async () => {
    await client.createWatchlist('vendors-under-review');
    const again = await client.call('POST', '/watchlists', { slug: 'vendors-under-review', name: 'Again' });
    assert.equal(again.statusCode, 409);
    assert.equal(again.json().code, 'conflict');
    const other = await client.createWatchlist('another');
    const renamed = await client.call('PATCH', `/watchlists/${other.id}`, { slug: 'vendors-under-review' });
    assert.equal(renamed.statusCode, 409, 'nor can one be renamed to it');
  });

  test('a change is a version; the same values again change nothing', async () => {
    const { id } = await client.createWatchlist('threats');
    const changed = await client.expect(200, 'PATCH', `/watchlists/${id}`, { slug: 'threats-2026', threshold: 0.9, active: false });
    assert.deepEqual(
      [changed.slug, changed.list_code, changed.threshold, changed.active, changed.version],
      ['threats-2026', 'ORG:threats-2026', 0.9, false, 2],
    );
    const same = await client.expect(200, 'PATCH', `/watchlists/${id}`, { threshold: 0.9, active: false });
    assert.equal(same.version, 2, 'no version for no change');
    const cleared = await client.expect(200, 'PATCH', `/watchlists/${id}`, { threshold: null, description: 'Threats made to staff.' });
    assert.deepEqual([cleared.threshold, cleared.description, cleared.version], [null, 'Threats made to staff.', 3]);
    const versions = (await client.expect(200, 'GET', `/watchlists/${id}/versions`)).data;
    assert.deepEqual(
      versions.map((v: { version: number; change: string }) => [v.version, v.change]),
      [
        [3, 'updated'],
        [2, 'updated'],
        [1, 'created'],
      ],
    );
    const audits = await client.audits(org.organizationId, ['watchlist.created', 'watchlist.updated']);
    const mine = audits.filter((a) => a.target_id === id);
    assert.deepEqual(
      mine.map((a) => [a.action, a.details.version, a.details.fields]),
      [
        ['watchlist.created', 1, undefined],
        ['watchlist.updated', 2, ['active', 'slug', 'threshold']],
        ['watchlist.updated', 3, ['description', 'threshold']],
      ],
    );
  });

  test('a deleted watchlist answers 404 everywhere, its slug is free again, and its history stays', async () => {
    const { id } = await client.createWatchlist('short-lived');
    const entry = await client.addEntry(id, { name: 'Taylor Example Moss' });
    const deleted = await client.expect(200, 'DELETE', `/watchlists/${id}`);
    assert.deepEqual(deleted, { object: 'watchlist', id, deleted: true, version: 3 });
    for (const [method, url] of [
      ['GET', `/watchlists/${id}`],
      ['PATCH', `/watchlists/${id}`],
      ['DELETE', `/watchlists/${id}`],
      ['GET', `/watchlists/${id}/entries`],
      ['GET', `/watchlists/${id}/entries/${entry.id}`],
      ['GET', `/watchlists/${id}/entries/export`],
      ['GET', `/watchlists/${id}/versions`],
      ['GET', `/watchlists/${id}/versions/1`],
    ] as const) {
      const response = await client.call(method, url, method === 'PATCH' ? { name: 'x' } : undefined);
      assert.equal(response.statusCode, 404, `${method} ${url}`);
    }
    const adding = await client.call('POST', `/watchlists/${id}/entries`, { name: 'Someone Else', reason: 'x', severity: 'red' });
    assert.equal(adding.statusCode, 404);
    assert.ok(!(await client.expect(200, 'GET', '/watchlists?limit=200')).data.some((w: { id: string }) => w.id === id));
    const reused = await client.createWatchlist('short-lived');
    assert.notEqual(reused.id, id);

    const [row] = await harness.database.owner<{ deleted_at: Date | null; version: number }>('SELECT deleted_at, version FROM watchlists WHERE id = $1', [id]);
    assert.ok(row?.deleted_at, 'the row is kept, marked');
    const versions = await harness.database.owner<{ change: string }>('SELECT change FROM watchlist_versions WHERE watchlist_id = $1 ORDER BY version', [id]);
    assert.deepEqual(
      versions.map((v) => v.change),
      ['created', 'entries_added', 'deleted'],
    );
    const entries = await harness.database.owner<{ removed_at: Date | null }>('SELECT removed_at FROM watchlist_entries WHERE watchlist_id = $1', [id]);
    assert.deepEqual(entries, [{ removed_at: null }], 'its entries are kept as they were');
  });

  test('lists live watchlists in creation order, in pages, filtered by active', async () => {
    const fresh = await createTenant(harness.database.owner, { tier: 'defense', admin: true });
    const mine = watchlistClient(harness, fresh);
    const made = [];
    for (const slug of ['a-list', 'b-list', 'c-list']) made.push((await mine.createWatchlist(slug)).id);
    await mine.expect(200, 'PATCH', `/watchlists/${made[1]}`, { active: false });
    const first = await mine.expect(200, 'GET', '/watchlists?limit=2');
    assert.deepEqual([first.data.map((w: { id: string }) => w.id), first.has_more], [made.slice(0, 2), true]);
    const second = await mine.expect(200, 'GET', `/watchlists?limit=2&cursor=${first.next_cursor}`);
    assert.deepEqual([second.data.map((w: { id: string }) => w.id), second.has_more, second.next_cursor], [made.slice(2), false, null]);
    const inactive = await mine.expect(200, 'GET', '/watchlists?active=false');
    assert.deepEqual(
      inactive.data.map((w: { id: string }) => w.id),
      [made[1]],
    );
    const bad = await mine.call('GET', '/watchlists?cursor=not-a-cursor');
    assert.deepEqual([bad.statusCode, mine.pointers(bad)], [400, ['/cursor']]);
  });

  test('each change is emitted as watchlist.changed, with ids and counts', async () => {
    const { id } = await client.createWatchlist('emitted');
    await client.addEntry(id, { name: 'Morgan Example Vale' });
    const events = await harness.database.owner<{ data: Record<string, unknown> }>(
      "SELECT data FROM event_outbox WHERE type = 'watchlist.changed' AND data->>'watchlist_id' = $1 ORDER BY id",
      [id],
    );
    assert.deepEqual(
      events.map((e) => e.data),
      [
        { watchlist_id: id, slug: 'emitted', version: 1, change: 'created', added: 0, changed: 0, removed: 0, entry_count: 0 },
        { watchlist_id: id, slug: 'emitted', version: 2, change: 'entries_added', added: 1, changed: 0, removed: 0, entry_count: 1 },
      ],
    );
  });
});

describe('who may do what', () => {
  let standard: Caller & { keyId: string };
  let viewer: Caller;
  let adjudicator: Caller;
  let watchlistId: string;
  before(async () => {
    standard = await createKey(harness.database.owner, org.organizationId);
    viewer = { headers: await personHeaders(harness.database.db, org.organizationId, 'viewer') };
    adjudicator = { headers: await personHeaders(harness.database.db, org.organizationId, 'adjudicator') };
    watchlistId = (await client.createWatchlist('permissions')).id;
  });

  const refusedFor = async (as: Caller, method: 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: unknown) => {
    const response = await client.call(method, url, payload, as);
    assert.equal(response.statusCode, 403, `${method} ${url}: ${response.body}`);
    return response.json().code;
  };

  test('a viewer reads watchlists and entries, and changes nothing', async () => {
    await client.expect(200, 'GET', `/watchlists/${watchlistId}`, undefined, viewer);
    await client.expect(200, 'GET', `/watchlists/${watchlistId}/entries`, undefined, viewer);
    assert.equal(await refusedFor(viewer, 'POST', `/watchlists/${watchlistId}/entries`, { name: 'A B', reason: 'x', severity: 'red' }), 'role_required');
    assert.equal(await refusedFor(viewer, 'PUT', `/watchlists/${watchlistId}/entries?mode=upsert`, { entries: [] }), 'role_required');
    assert.equal(await refusedFor(viewer, 'POST', '/watchlists', { slug: 'viewer', name: 'V' }), 'role_required');
  });

  test("a standard key (an HR system's) adds, changes and removes entries, but does not create, change or delete watchlists", async () => {
    const entry = await client.addEntry(watchlistId, { name: 'Riley Example Stone', external_id: 'HR-1' }, standard);
    assert.equal(entry.added_by, `api_key:${standard.keyId}`);
    await client.expect(200, 'PATCH', `/watchlists/${watchlistId}/entries/${entry.id}`, { severity: 'orange' }, standard);
    await client.expect(200, 'DELETE', `/watchlists/${watchlistId}/entries/${entry.id}`, undefined, standard);
    const imported = await client.call('PUT', `/watchlists/${watchlistId}/entries?mode=upsert`, { entries: [] }, standard);
    assert.equal(imported.statusCode, 200, imported.body);
    assert.equal(await refusedFor(standard, 'POST', '/watchlists', { slug: 'hr', name: 'HR' }), 'role_required');
    assert.equal(await refusedFor(standard, 'PATCH', `/watchlists/${watchlistId}`, { active: false }), 'role_required');
    assert.equal(await refusedFor(standard, 'DELETE', `/watchlists/${watchlistId}`), 'role_required');
  });

  test('an adjudicator adds entries; only an administrator creates a watchlist', async () => {
    const entry = await client.addEntry(watchlistId, { name: 'Casey Example Lowe' }, adjudicator);
    assert.equal(entry.added_by, 'user:adjudicator@example.com');
    assert.equal(await refusedFor(adjudicator, 'POST', '/watchlists', { slug: 'adj', name: 'Adj' }), 'role_required');
    const admin = { headers: await personHeaders(harness.database.db, org.organizationId, 'admin') };
    const made = await client.call('POST', '/watchlists', { slug: 'admin-made', name: 'A' }, admin);
    assert.equal(made.statusCode, 201, made.body);
    assert.equal(made.json().created_by, 'user:admin@example.com');
  });
});

describe("another organization's watchlists", () => {
  test('answer 404 to every route, and are never listed', async () => {
    const theirs = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    const them = watchlistClient(harness, theirs);
    const { id } = await them.createWatchlist('their-list');
    const entry = await them.addEntry(id, { name: 'Jamie Example Hart' });
    for (const [method, url, payload] of [
      ['GET', `/watchlists/${id}`],
      ['PATCH', `/watchlists/${id}`, { name: 'Mine now' }],
      ['DELETE', `/watchlists/${id}`],
      ['GET', `/watchlists/${id}/entries`],
      ['POST', `/watchlists/${id}/entries`, { name: 'Planted Name', reason: 'x', severity: 'red' }],
      ['PUT', `/watchlists/${id}/entries?mode=replace&allow_shrink=true`, { entries: [] }],
      ['GET', `/watchlists/${id}/entries/export`],
      ['GET', `/watchlists/${id}/entries/${entry.id}`],
      ['PATCH', `/watchlists/${id}/entries/${entry.id}`, { severity: 'yellow' }],
      ['DELETE', `/watchlists/${id}/entries/${entry.id}`],
      ['GET', `/watchlists/${id}/versions`],
      ['GET', `/watchlists/${id}/versions/1`],
    ] as const) {
      const response = await client.call(method, url, payload);
      assert.equal(response.statusCode, 404, `${method} ${url}: ${response.body}`);
    }
    const listed = (await client.expect(200, 'GET', '/watchlists?limit=200')).data.map((w: { id: string }) => w.id);
    assert.ok(!listed.includes(id));
    const after = await them.expect(200, 'GET', `/watchlists/${id}/entries/${entry.id}`);
    assert.deepEqual([after.status, after.severity, after.version], ['active', 'red', 2], 'nothing of theirs changed');
  });
});
