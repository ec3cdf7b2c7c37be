/**
 * An ownership check's name screening meets the organization's watchlists: a party on one is
 * reported with the watchlist, severity and reason, warned of, and never counted as a designation
 * (the 50 Percent and Affiliates rules count OFAC and BIS listings); the watchlist consulted is
 * named among the versions screened; another organization's watchlists are never met.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists } from '../../helpers/test-lists.ts';
import { watchlistRows } from '../../helpers/watchlist-rows.ts';

describe('ownership name screening with watchlists', () => {
  let harness: TestApp;
  let org: TestTenant;
  let other: TestTenant;
  let watchlist: string;
  let entry: string;

  const check = async (tenant: TestTenant) => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/ownership/check',
      headers: tenant.headers,
      payload: {
        target: 'T',
        as_of: '2026-11-22',
        entities: [
          { id: 'OWNER', name: 'Brackenridge Maritime Holdings', type: 'entity', country: 'PA' },
          { id: 'T', name: 'Selwyn Harbour Services', type: 'entity', country: 'AE' },
        ],
        ownerships: [{ owner: 'OWNER', owned: 'T', percent: 60 }],
      },
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };

  before(async () => {
    harness = await buildTestApp();
    await loadTestLists(harness);
    org = await createTenant(harness.database.owner, { tier: 'enterprise' });
    other = await createTenant(harness.database.owner, { tier: 'enterprise' });
    const rows = watchlistRows(harness, org);
    watchlist = await rows.createWatchlist({ slug: 'counterparties', name: 'Counterparties under review' });
    [entry = ''] = await rows.addEntries(watchlist, [
      { names: ['Brackenridge Maritime Holdings'], type: 'organization', severity: 'orange', reason: 'Beneficial owner unverified.' },
    ]);
  });
  after(() => harness.close());

  test('a party on a watchlist is reported and warned of, never counted as a designation', async () => {
    const body = await check(org);
    const owner = body.entities.find((e: { id: string }) => e.id === 'OWNER');
    assert.deepEqual(owner.designations, []);
    const [match] = owner.screening_matches;
    assert.deepEqual([match.list, match.entry_id, match.counted, match.list_version], ['ORG:counterparties', entry, false, `${watchlist}@2`]);
    assert.deepEqual(match.watchlist, {
      id: watchlist,
      slug: 'counterparties',
      name: 'Counterparties under review',
      severity: 'orange',
      reason: 'Beneficial owner unverified.',
    });
    assert.equal(body.ofac.blocked, false, 'a watchlist is not a designation: T is not blocked');
    const warning = body.warnings.find((w: { code: string }) => w.code === 'watchlist_match');
    assert.deepEqual([warning?.entities, warning?.count], [['OWNER'], 1]);
    assert.ok(!body.warnings.some((w: { code: string }) => w.code === 'potential_match_not_counted'), 'not a list match below the threshold');
    assert.ok(
      body.screening.list_versions.some((v: { list: string; version_id: string }) => v.list === 'ORG:counterparties' && v.version_id === `${watchlist}@2`),
    );
  });

  test("another organization's check never meets our watchlists", async () => {
    const body = await check(other);
    assert.equal(body.entities.find((e: { id: string }) => e.id === 'OWNER')?.screening_matches, undefined);
    assert.ok(!body.screening.list_versions.some((v: { list: string }) => v.list.startsWith('ORG:')));
  });
});
