/**
 * The per-organization cache keyed by the settings stamp: what it answers without reading, and
 * when it reads again.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stampedCache } from '../../src/db/stamped-cache.ts';
import type { Actor, TenantTransaction } from '../../src/db/tenant.ts';

const trx = {} as TenantTransaction;
const actor = (organizationId: string, settingsStamp?: string): Actor => ({ organizationId, kind: 'api_key', id: 'key_x', ...(settingsStamp !== undefined && { settingsStamp }) });

function counting() {
  let reads = 0;
  const cache = stampedCache(async () => ({ read: ++reads, nested: { list: [1] } }));
  return { cache, reads: () => reads };
}

test('the same stamp answers what was read under it; a new stamp reads again', async () => {
  const { cache, reads } = counting();
  assert.equal((await cache(trx, actor('org_a', '3'))).read, 1);
  assert.equal((await cache(trx, actor('org_a', '3'))).read, 1);
  assert.equal(reads(), 1);
  assert.equal((await cache(trx, actor('org_a', '4'))).read, 2);
  assert.equal((await cache(trx, actor('org_a', '4'))).read, 2);
});

test('each organization keeps its own value', async () => {
  const { cache } = counting();
  assert.equal((await cache(trx, actor('org_a', '1'))).read, 1);
  assert.equal((await cache(trx, actor('org_b', '1'))).read, 2);
  assert.equal((await cache(trx, actor('org_a', '1'))).read, 1);
});

test('a caller without a stamp (a person, a system job) always reads', async () => {
  const { cache, reads } = counting();
  await cache(trx, actor('org_a'));
  await cache(trx, actor('org_a'));
  assert.equal(reads(), 2);
});

test('a kept value is shared, so it cannot be changed by one of its users', async () => {
  const { cache } = counting();
  const value = await cache(trx, actor('org_a', '1'));
  assert.throws(() => {
    (value.nested.list as number[]).push(2);
  }, TypeError);
});
