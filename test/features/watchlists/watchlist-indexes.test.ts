/**
 * The watchlist indexes of every organization in a process, on a real database: an organization
 * with no watchlist costs one read of its watchlists when its stamp moves and no statement while
 * it holds; another setting moving the stamp reads no entry; memory is bounded across
 * organizations (the unused longest dropped past the budget, the idle after their time) and a
 * dropped organization is built again, the same, on its next use.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Actor, TenantTransaction } from '../../../src/db/tenant.ts';
import { createWatchlistIndexes, type WatchlistIndexOptions } from '../../../src/features/watchlists/watchlist-indexes.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { type StatementTap, tapStatements } from '../../helpers/statement-tap.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { watchlistRows } from '../../helpers/watchlist-rows.ts';

describe('watchlist indexes across organizations', () => {
  let harness: TestApp;
  const tenants: TestTenant[] = [];
  let clock = 0;

  const actorOf = (tenant: TestTenant): Actor => ({ organizationId: tenant.organizationId, kind: 'api_key', id: tenant.keyId });
  const indexesWith = (options: Partial<WatchlistIndexOptions> = {}) =>
    createWatchlistIndexes({ rarity: () => undefined, maxEntries: 1_000, idleMs: 60_000, deltaLimit: 16, now: () => clock, ...options });
  const use = (indexes: ReturnType<typeof indexesWith>, tenant: TestTenant, name = 'Wilhelmina Strathearn') =>
    harness.database.db.withTenant(actorOf(tenant), async (trx: TenantTransaction) =>
      (await indexes.of(trx)).screen({ name, kind: 'person' }, { threshold: () => 0.8 }, new Date()).map((m) => m.entry.id),
    );
  const watchlistReads = (tap: StatementTap) => tap.sent.filter((q) => /\b(from|join) "?watchlist/i.test(q.text)).map((q) => q.text);

  before(async () => {
    harness = await buildTestApp();
    for (let i = 0; i < 3; i++) tenants.push(await createTenant(harness.database.owner, { tier: 'enterprise', admin: true }));
    for (const tenant of tenants.slice(1)) {
      const rows = watchlistRows(harness, tenant);
      const id = await rows.createWatchlist({ slug: 'visitors' });
      await rows.addEntries(id, [{ names: ['Wilhelmina Strathearn'] }, { names: ['Barnaby Coldridge'] }, { names: ['Ottilie Farquharson'] }]);
    }
  });
  after(() => harness.close());

  test('an organization with no watchlist: one read of its watchlists when its stamp moves, none while it holds', async () => {
    const indexes = indexesWith();
    const [none] = tenants as [TestTenant];
    let tap = tapStatements();
    try {
      assert.deepEqual(await use(indexes, none), []);
      assert.equal(watchlistReads(tap).length, 1, watchlistReads(tap).join('\n'));
    } finally {
      tap.close();
    }
    tap = tapStatements();
    try {
      await use(indexes, none);
      assert.deepEqual(watchlistReads(tap), [], 'the stamp compared, nothing read');
    } finally {
      tap.close();
    }
    assert.equal(indexes.held(none.organizationId), null);
  });

  test('another setting moving the stamp reads the watchlists, and no entry', async () => {
    const indexes = indexesWith();
    const tenant = tenants[1] as TestTenant;
    const [first] = await use(indexes, tenant);
    assert.ok(first);
    const put = await harness.app.inject({ method: 'PUT', url: '/api/v1/adjudication/rules', headers: tenant.headers, payload: { sla_hours: { low: 200 } } });
    assert.equal(put.statusCode, 200, put.body);
    const tap = tapStatements();
    try {
      assert.deepEqual(await use(indexes, tenant), [first]);
      const reads = watchlistReads(tap);
      assert.equal(reads.length, 1, reads.join('\n'));
      assert.ok(!reads.some((text) => /watchlist_entries/.test(text)), 'no watchlist moved: no entry read');
    } finally {
      tap.close();
    }
  });

  test('past the budget the organization unused the longest is dropped, and built again the same on its next use', async () => {
    const indexes = indexesWith({ maxEntries: 5 });
    const [none, a, b] = tenants as [TestTenant, TestTenant, TestTenant];
    const found = await use(indexes, a);
    await use(indexes, none);
    assert.deepEqual(indexes.size(), { organizations: 2, entries: 3 });
    await use(indexes, b);
    assert.equal(indexes.held(a.organizationId), undefined, 'three and three entries do not fit in five: the unused longest went');
    assert.ok(indexes.held(b.organizationId));
    assert.deepEqual(indexes.size(), { organizations: 2, entries: 3 });
    assert.deepEqual(await use(indexes, a), found);
    assert.equal(indexes.held(b.organizationId), undefined);
  });

  test('an organization unused for the idle time is dropped, even when nothing changes', async () => {
    const indexes = indexesWith({ idleMs: 1_000 });
    const [none, a] = tenants as [TestTenant, TestTenant];
    await use(indexes, a);
    clock += 500;
    await use(indexes, none);
    assert.ok(indexes.held(a.organizationId));
    clock += 1_000;
    await use(indexes, none);
    assert.equal(indexes.held(a.organizationId), undefined);
    assert.equal(indexes.held(none.organizationId), null, 'the one in use stays');
  });
});
