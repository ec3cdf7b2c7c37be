/**
 * Continuous monitoring of an organization's watchlists: a version that adds or changes entries
 * queues a run in its own transaction; the run re-screens the organization's workforce, vendors
 * and visitors not yet gone against those entries only (not the public lists, not the other
 * entries), opens a case for what it finds, and reopens a subject's case when a changed entry
 * denies; a version that only removes entries queues nothing; another organization's subjects
 * are never looked at.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists } from '../../helpers/test-lists.ts';
import { type WatchlistRows, watchlistRows } from '../../helpers/watchlist-rows.ts';

describe('monitoring after a watchlist changes', () => {
  let harness: TestApp;
  let org: TestTenant;
  let other: TestTenant;
  let rows: WatchlistRows;
  let watchlist: string;

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, tenant = org) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers: tenant.headers, ...(payload && { payload }) });
  const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, tenant = org) => {
    const response = await call(method, url, payload, tenant);
    assert.ok(response.statusCode < 300, `${method} ${url}: ${response.body}`);
    return response.json();
  };
  const profile = async (externalId: string, tenant = org) => (await ok('GET', `/workforce/profiles?external_id=${externalId}`, undefined, tenant)).data[0];
  const runs = async () => (await ok('GET', '/monitoring/runs')).data;

  before(async () => {
    harness = await buildTestApp();
    await loadTestLists(harness);
    org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    other = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    rows = watchlistRows(harness, org);
    watchlist = await rows.createWatchlist({ slug: 'insider-risk', name: 'Insider risk' });
  });
  after(() => harness.close());

  test('an added entry re-screens the workforce, vendors and visitors on site against it alone, and opens their cases', async () => {
    await ok('PUT', '/workforce/sync', {
      mode: 'upsert',
      profiles: [
        { external_id: 'W-1', name: 'Godfrey Ellsworth-Pike' },
        { external_id: 'W-2', name: 'Ada Quill' },
      ],
    });
    await ok('PUT', '/workforce/sync', { mode: 'upsert', profiles: [{ external_id: 'W-9', name: 'Godfrey Ellsworth-Pike' }] }, other);
    const vendor = (await ok('POST', '/vendors/screen', { vendors: [{ name: 'Tarnwick Salvage Ltd', external_id: 'V-1' }] })).results[0];
    const visitor = await ok('POST', '/checkin', { visitor: { name: 'Lucan Merriweather' }, site: 'HQ' });
    assert.deepEqual([vendor.screening.outcome, visitor.status, (await profile('W-1')).latest_outcome], ['clear', 'checked_in', 'clear']);

    const [, vendorEntry] = await rows.addEntries(watchlist, [
      { names: ['Godfrey Ellsworth-Pike'], reason: 'Copied design files before leaving.' },
      { names: ['Tarnwick Salvage Ltd'], type: 'organization', reason: 'Supplier under investigation.' },
      { names: ['Lucan Merriweather'], severity: 'yellow', reason: 'Tailgated at gate 2.' },
    ]);
    const [queued] = await runs();
    assert.deepEqual([queued.list, queued.list_version_id, queued.changed_entries, queued.status], ['ORG:insider-risk', `${watchlist}@2`, 3, 'queued']);

    await harness.app.services.monitoring.workRuns();
    const [run] = await runs();
    assert.equal(run.status, 'completed');
    assert.deepEqual(run.counts, { subjects: 4, screened: 4, potential_matches: 3, cases_opened: 3, cases_reopened: 0, graphs_examined: 0, graphs_changed: 0 });

    const insider = await profile('W-1');
    const insiderCase = await ok('GET', `/adjudication/${insider.case_id}`);
    assert.deepEqual([insiderCase.source, insiderCase.status], ['rescreen', 'OPEN']);
    assert.deepEqual(
      insiderCase.screening.matches.map((m: { list: string; watchlist: { reason: string } }) => [m.list, m.watchlist.reason]),
      [['ORG:insider-risk', 'Copied design files before leaving.']],
    );
    assert.deepEqual(
      insiderCase.screening.list_versions.map((v: { list: string; version_id: string }) => [v.list, v.version_id]),
      [['ORG:insider-risk', `${watchlist}@2`]],
      'the changed entries alone: no public list, no other version',
    );
    assert.equal((await profile('W-2')).latest_outcome, 'clear');
    const [vendorRow] = await harness.database.owner<{ latest_screening_id: string }>("SELECT latest_screening_id FROM vendors WHERE external_id = 'V-1'");
    assert.equal((await ok('GET', `/screenings/${vendorRow?.latest_screening_id}`)).matches[0].entry_id, vendorEntry);
    const session = await ok('GET', `/sessions/${visitor.id}`);
    assert.deepEqual([session.status, session.on_site], ['escalated', true], 'a visitor inside who was just put on a watchlist is escalated');
    assert.match(session.case_id, /^case_/);
    assert.equal((await profile('W-9', other)).case_id, null, "another organization's employee of the same name is never looked at");
  });

  test("a changed entry now red re-screens again and its subject's case reopens DENIED", async () => {
    const insider = await profile('W-1');
    const [entry] = await harness.database.owner<{ id: string }>("SELECT id FROM watchlist_entries WHERE names->0->>'full' = 'Godfrey Ellsworth-Pike'");
    await rows.changeEntry(watchlist, entry?.id as string, {
      names: ['Godfrey Ellsworth-Pike'],
      severity: 'red',
      reason: 'Charged with theft of trade secrets.',
    });
    await harness.app.services.monitoring.workRuns();
    const [run] = await runs();
    assert.deepEqual([run.list_version_id, run.changed_entries, run.counts.cases_reopened], [`${watchlist}@3`, 1, 1]);
    const reopened = await ok('GET', `/adjudication/${insider.case_id}`);
    assert.equal(reopened.status, 'DENIED');
    assert.deepEqual(
      reopened.history.map((h: { action: string; to_status: string }) => [h.action, h.to_status]),
      [
        ['opened', 'OPEN'],
        ['reopened', 'DENIED'],
      ],
    );
  });

  test('a version that only removes entries queues no run', async () => {
    const before = (await runs()).length;
    const [entry] = await harness.database.owner<{ id: string }>("SELECT id FROM watchlist_entries WHERE names->0->>'full' = 'Lucan Merriweather'");
    await rows.removeEntries(watchlist, [entry?.id as string]);
    assert.equal((await runs()).length, before);
  });
});
