/**
 * An organization's watchlists screened beside the public lists, on a real app and database: a
 * prescreen labels a match `ORG:<slug>` with its watchlist, severity and reason; vendors and the
 * workforce meet the same entries; another organization's entries, an inactive or deleted
 * watchlist, an expired entry and a changed entry's old name never match; each watchlist's own
 * threshold holds; and a new entry is matched at once, touching only the organization's delta.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ScreeningInput } from '../../../src/features/screenings/screening-record.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists } from '../../helpers/test-lists.ts';
import { type WatchlistRows, watchlistRows } from '../../helpers/watchlist-rows.ts';

type Match = { list: string; entry_id: string; entry_sha256: string; list_version: string; threshold: number; watchlist?: Record<string, unknown> };
type Screening = { outcome: string; matches: Match[]; list_versions: { list: string; version_id: string; sha256: string }[]; case_status: string | null };

describe('watchlists in screening', () => {
  let harness: TestApp;
  let org: TestTenant;
  let other: TestTenant;
  let rows: WatchlistRows;
  let doNotAdmit: string;
  let feldhaven: string;

  const call = (method: 'POST' | 'PUT' | 'GET', url: string, payload?: object, tenant = org) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers: tenant.headers, ...(payload && { payload }) });
  const prescreen = async (payload: object, tenant = org): Promise<Screening> => {
    const response = await call('POST', '/prescreen', payload, tenant);
    assert.equal(response.statusCode, 201, response.body);
    return response.json();
  };
  const onWatchlists = (screening: Screening) => screening.matches.filter((m) => m.list.startsWith('ORG:'));

  before(async () => {
    harness = await buildTestApp();
    await loadTestLists(harness);
    org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    other = await createTenant(harness.database.owner, { tier: 'enterprise' });
    rows = watchlistRows(harness, org);
    doNotAdmit = await rows.createWatchlist({ slug: 'do-not-admit', name: 'Do not admit' });
    [feldhaven = ''] = await rows.addEntries(doNotAdmit, [
      { names: ['Marcus Feldhaven', 'Marc Feldhaven'], severity: 'orange', reason: 'Made threats against staff.', countries: ['DE'] },
    ]);
  });
  after(() => harness.close());

  test('a prescreen matches an entry, labelled ORG:<slug> with its watchlist, severity and reason, and names the watchlist version it consulted', async () => {
    const screening = await prescreen({ subject: 'Marcus Feldhaven', country: 'DE' });
    assert.equal(screening.outcome, 'potential_match');
    const [match] = onWatchlists(screening);
    assert.ok(match, JSON.stringify(screening.matches));
    assert.equal(match.list, 'ORG:do-not-admit');
    assert.equal(match.entry_id, feldhaven);
    assert.deepEqual(match.watchlist, {
      id: doNotAdmit,
      slug: 'do-not-admit',
      name: 'Do not admit',
      severity: 'orange',
      reason: 'Made threats against staff.',
    });
    const [entry] = await harness.database.owner<{ sha256: string }>('SELECT sha256 FROM watchlist_entries WHERE id = $1', [feldhaven]);
    assert.equal(match.entry_sha256, entry?.sha256);
    const consulted = screening.list_versions.find((v) => v.list === 'ORG:do-not-admit');
    const [version] = await harness.database.owner<{ version: number; content_sha256: string }>(
      'SELECT v.version, v.content_sha256 FROM watchlist_versions v JOIN watchlists w ON w.organization_id = v.organization_id AND w.id = v.watchlist_id AND w.version = v.version WHERE w.id = $1',
      [doNotAdmit],
    );
    assert.deepEqual(consulted && [consulted.version_id, consulted.sha256], [`${doNotAdmit}@${version?.version}`, version?.content_sha256]);
    assert.equal(match.list_version, consulted?.version_id);
    assert.ok(
      screening.list_versions.some((v) => v.list === 'OFAC_SDN'),
      'the public lists are consulted beside it',
    );
    assert.equal(screening.case_status, 'OPEN', 'orange holds, as a public-list match does');
    const alias = await prescreen({ subject: 'Marc Feldhaven' });
    assert.equal(onWatchlists(alias)[0]?.entry_id, feldhaven, 'an alias matches too');
    const narrowed = await prescreen({ subject: 'Marcus Feldhaven', lists: ['OFAC_SDN'] });
    assert.equal(onWatchlists(narrowed)[0]?.entry_id, feldhaven, 'a request naming public lists still screens the watchlists');
  });

  test("another organization's entries never match it, and its screenings name no watchlist of ours", async () => {
    const screening = await prescreen({ subject: 'Marcus Feldhaven', country: 'DE' }, other);
    assert.equal(screening.outcome, 'clear');
    assert.deepEqual(
      screening.list_versions.filter((v) => v.list.startsWith('ORG:')),
      [],
    );
  });

  test('a new entry is matched by the next screening, and only the delta is built for it', async () => {
    const index = harness.app.services.watchlistIndexes.held(org.organizationId);
    assert.ok(index);
    const before = { ...index.builds };
    await rows.addEntries(doNotAdmit, [{ names: ['Ysolde Brannigan-Vos'], severity: 'yellow', reason: 'Trespassed at plant 3.' }]);
    const screening = await prescreen({ subject: 'Ysolde Brannigan-Vos' });
    assert.equal(onWatchlists(screening)[0]?.watchlist?.severity, 'yellow');
    assert.deepEqual(index.builds, { base: before.base, delta: before.delta + 1 }, 'one entry added: the delta rebuilt, the base untouched');
    assert.equal(harness.app.services.watchlistIndexes.held(org.organizationId), index, 'the same index, caught up');
  });

  test("a changed entry's new name matches and its old name no longer does", async () => {
    const [id] = await rows.addEntries(doNotAdmit, [{ names: ['Tobiah Quennell'], reason: 'Former contractor, badge revoked.' }]);
    assert.equal(onWatchlists(await prescreen({ subject: 'Tobiah Quennell' }))[0]?.entry_id, id);
    await rows.changeEntry(doNotAdmit, id as string, { names: ['Tobias Quenneville'], reason: 'Former contractor, badge revoked.' });
    assert.equal(onWatchlists(await prescreen({ subject: 'Tobias Quenneville' }))[0]?.entry_id, id);
    assert.deepEqual(onWatchlists(await prescreen({ subject: 'Tobiah Quennell' })), []);
    await rows.removeEntries(doNotAdmit, [id as string]);
    assert.deepEqual(onWatchlists(await prescreen({ subject: 'Tobias Quenneville' })), [], 'a removed entry matches nothing');
  });

  test('an inactive watchlist matches nothing and is not consulted; active again, it matches; deleted, never', async () => {
    const temporary = await rows.createWatchlist({ slug: 'site-bans' });
    const [id] = await rows.addEntries(temporary, [{ names: ['Corwin Ashdale-Pryce'], reason: 'Banned from site 2.' }]);
    assert.equal(onWatchlists(await prescreen({ subject: 'Corwin Ashdale-Pryce' }))[0]?.entry_id, id);
    await rows.updateWatchlist(temporary, { active: false });
    const inactive = await prescreen({ subject: 'Corwin Ashdale-Pryce' });
    assert.deepEqual([onWatchlists(inactive), inactive.list_versions.some((v) => v.list === 'ORG:site-bans')], [[], false]);
    await rows.updateWatchlist(temporary, { active: true });
    assert.equal(onWatchlists(await prescreen({ subject: 'Corwin Ashdale-Pryce' }))[0]?.entry_id, id);
    await rows.deleteWatchlist(temporary);
    const deleted = await prescreen({ subject: 'Corwin Ashdale-Pryce' });
    assert.deepEqual([onWatchlists(deleted), deleted.list_versions.some((v) => v.list === 'ORG:site-bans')], [[], false]);
  });

  test('an entry stops matching when it expires, with no write in between', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000);
    const [id] = await rows.addEntries(doNotAdmit, [{ names: ['Perpetua Lindqvist-Oyelaran'], expiresAt, reason: 'Barred for one month.' }]);
    const screenAt = (now: Date) =>
      harness.database.db.withTenant({ organizationId: org.organizationId, kind: 'api_key', id: org.keyId }, async (trx) => {
        const context = { actor: { organizationId: org.organizationId, kind: 'api_key' as const, id: org.keyId }, requestId: null, sourceIp: null };
        const input: ScreeningInput = { subject: 'Perpetua Lindqvist-Oyelaran', type: 'person' };
        const [view] = await harness.app.services.screenings.screenMany(trx, context, [input], 'prescreen', { now });
        return view?.record.matches.filter((m) => m.list.startsWith('ORG:')).map((m) => m.entry_id);
      });
    assert.deepEqual(await screenAt(new Date(expiresAt.getTime() - 60_000)), [id]);
    assert.deepEqual(await screenAt(new Date(expiresAt.getTime() + 60_000)), []);
    const [past] = await rows.addEntries(doNotAdmit, [{ names: ['Evander Solberg-Maitland'], expiresAt: new Date(Date.now() - 60_000) }]);
    assert.ok(past);
    assert.deepEqual(onWatchlists(await prescreen({ subject: 'Evander Solberg-Maitland' })), [], 'an entry added already expired never matches');
  });

  test("each watchlist's threshold holds its entries: its own, else the rules' for ORG:<slug>, else the match threshold", async () => {
    const strict = await rows.createWatchlist({ slug: 'strict', threshold: 0.99 });
    const [id] = await rows.addEntries(strict, [{ names: ['Alasdair Vantongeren'], reason: 'Threshold test.' }]);
    const near = { subject: 'Alasdair Vantongeran' };
    const matched = async () => onWatchlists(await prescreen(near)).find((m) => m.entry_id === id);
    assert.equal(await matched(), undefined, 'a near spelling misses a watchlist held to 0.99');
    await rows.updateWatchlist(strict, { threshold: null });
    const atDefault = await matched();
    assert.ok(atDefault && atDefault.threshold === 0.8 && atDefault.list === 'ORG:strict', JSON.stringify(atDefault));
    const put = await call('PUT', '/adjudication/rules', { thresholds: { lists: { 'ORG:strict': 0.99 } } });
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(await matched(), undefined, "the rules' threshold for ORG:strict holds when the watchlist sets none");
    assert.equal((await call('PUT', '/adjudication/rules', {})).statusCode, 200);
  });

  test('vendors and the workforce are screened against the watchlists too', async () => {
    const suppliers = await rows.createWatchlist({ slug: 'suppliers-under-review', name: 'Suppliers under review' });
    const [vendorEntry] = await rows.addEntries(suppliers, [{ names: ['Ostrava Kinetic Holdings'], type: 'organization', reason: 'Open fraud inquiry.' }]);
    const vendors = await call('POST', '/vendors/screen', { vendors: [{ name: 'Ostrava Kinetic Holdings s.r.o.', country: 'CZ' }] });
    assert.equal(vendors.statusCode, 201, vendors.body);
    const [vendorMatch] = onWatchlists(vendors.json().results[0].screening);
    assert.deepEqual([vendorMatch?.list, vendorMatch?.entry_id], ['ORG:suppliers-under-review', vendorEntry]);

    const sync = await call('PUT', '/workforce/sync', { mode: 'upsert', profiles: [{ external_id: 'W-FELD', name: 'Marcus Feldhaven' }] });
    assert.equal(sync.statusCode, 200, sync.body);
    const profile = (await call('GET', '/workforce/profiles?external_id=W-FELD')).json().data[0];
    assert.ok(profile.case_id, JSON.stringify(profile));
    const screening = (await call('GET', `/screenings/${profile.latest_screening_id}`)).json();
    assert.equal(onWatchlists(screening)[0]?.entry_id, feldhaven);
  });
});
