/**
 * Ownership determinations on record: a check kept with `store` (or under rules that store every
 * check) is read back whole with its hash verified against the canonical record and named by its
 * audit event; the list filters and pages; a vendor named is checked and attached; another
 * organization's determinations are never reachable.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { canonicalJson } from '../../../src/canonical-json.ts';
import { FAQ_401_EXAMPLE_3 } from '../../../src/features/ownership/request-examples.ts';
import { sha256Hex } from '../../../src/sha256.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { loadSdn } from '../../helpers/sdn-loading.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { fixture } from '../screenings/screening-app.ts';

/** FAQ 401 Example 3: blocked under OFAC through A, which X owns 50% of. */
const blocked = { ...FAQ_401_EXAMPLE_3, screen_names: false };
/** The same graph with X's designation gone: nothing reaches T. */
const clear = { ...blocked, entities: blocked.entities.map((e) => ({ ...e, designations: [] })) };

describe('stored ownership determinations', () => {
  let harness: TestApp;
  let enterprise: TestTenant;
  let other: TestTenant;
  const request = (method: 'GET' | 'POST' | 'PUT', url: string, tenant: TestTenant, payload?: object) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers: tenant.headers, ...(payload && { payload }) });
  const check = async (payload: object, tenant = enterprise) => {
    const response = await request('POST', '/ownership/check', tenant, payload);
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  };

  before(async () => {
    harness = await buildTestApp();
    enterprise = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    other = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    await loadSdn(harness, fixture('ofac/sdn.csv'), fixture('ofac/alt.csv'));
  });
  after(() => harness.close());

  test('a check sent with store is read back whole, its hash verified and named by its audit event', async () => {
    const answer = await check({ ...blocked, store: true });
    assert.equal(answer.stored, true);
    assert.match(answer.record_sha256, /^[0-9a-f]{64}$/);

    const read = await request('GET', `/ownership/checks/${answer.id}`, enterprise);
    assert.equal(read.statusCode, 200, read.body);
    const stored = read.json();
    assert.deepEqual(
      [stored.object, stored.id, stored.status, stored.record_sha256, stored.record_sha256_verified],
      ['ownership_determination', answer.id, 'blocked', answer.record_sha256, true],
    );
    assert.deepEqual(stored.request.entities, blocked.entities, 'the graph as submitted');
    assert.deepEqual(stored.request.ownerships, blocked.ownerships);
    assert.deepEqual(stored.answer.ofac, answer.ofac, 'the answer as given');
    assert.deepEqual(stored.asked_by, { type: 'api_key', id: enterprise.keyId });
    // Anyone can check the hash: SHA-256 of the canonical JSON of the record's own fields.
    const { object, superseded_by, case_id, record_sha256, record_sha256_verified, ...record } = stored;
    assert.equal(sha256Hex(canonicalJson(record)), answer.record_sha256);

    const [audit] = await harness.database.owner<{ details: { record_sha256: string; stored: boolean } }>(
      "SELECT details FROM audit_events WHERE action = 'ownership.checked' AND target_id = $1",
      [answer.id],
    );
    assert.deepEqual([audit?.details.stored, audit?.details.record_sha256], [true, answer.record_sha256]);
  });

  test('a check that screened names re-hashes, from what GET answers, to its record_sha256: the record keeps only what it shows', async () => {
    const answer = await check({ ...blocked, screen_names: true, store: true });
    const stored = (await request('GET', `/ownership/checks/${answer.id}`, enterprise)).json();
    assert.ok(stored.answer.screening.list_versions.length > 0, 'the lists it screened against are named');
    const { object, superseded_by, case_id, record_sha256, record_sha256_verified, ...record } = stored;
    assert.equal(sha256Hex(canonicalJson(record)), answer.record_sha256);
  });

  test('a record changed in the database after it was stored reads back as not verified', async () => {
    const answer = await check({ ...blocked, store: true });
    await harness.database.owner(`UPDATE ownership_checks SET record = jsonb_set(record, '{status}', '"clear"') WHERE id = $1`, [answer.id]);
    const stored = (await request('GET', `/ownership/checks/${answer.id}`, enterprise)).json();
    assert.equal(stored.record_sha256_verified, false);
  });

  test('a check is not stored unless asked, or unless the rules store every check', async () => {
    const unstored = await check(blocked);
    assert.deepEqual([unstored.stored, unstored.record_sha256], [false, null]);
    assert.equal((await request('GET', `/ownership/checks/${unstored.id}`, enterprise)).statusCode, 404);

    const tenant = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    const rules = await request('PUT', '/adjudication/rules', tenant, { ownership: { store: 'always' } });
    assert.equal(rules.statusCode, 200, rules.body);
    assert.deepEqual(rules.json().rules.ownership, { store: 'always', open_case_on: ['blocked', 'restricted', 'indeterminate'] });
    const always = await check(blocked, tenant);
    assert.equal(always.stored, true);
    assert.equal((await request('GET', `/ownership/checks/${always.id}`, tenant)).statusCode, 200);
  });

  test('the list filters by status, target and name, pages newest first, and shows no graph', async () => {
    const tenant = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    const made = [];
    for (const body of [blocked, clear, blocked]) made.push((await check({ ...body, store: true }, tenant)).id);
    const page = async (query: string) => {
      const response = await request('GET', `/ownership/checks${query}`, tenant);
      assert.equal(response.statusCode, 200, response.body);
      return response.json();
    };
    const all = await page('');
    assert.deepEqual(
      all.data.map((d: { id: string }) => d.id),
      [...made].reverse(),
    );
    assert.equal(all.data[0].request, undefined);
    assert.deepEqual(
      (await page('?status=clear')).data.map((d: { id: string }) => d.id),
      [made[1]],
    );
    assert.equal((await page('?target_id=T')).data.length, 3);
    assert.equal((await page('?target_id=nobody')).data.length, 0);
    assert.equal((await page('?q=target%20TRADING')).data.length, 3);
    assert.equal((await page('?q=alpha')).data.length, 0, "an owner's name is not the target's");
    const first = await page('?limit=2');
    assert.deepEqual([first.data.length, first.has_more], [2, true]);
    const second = await page(`?limit=2&cursor=${first.next_cursor}`);
    assert.deepEqual(
      second.data.map((d: { id: string }) => d.id),
      [made[0]],
    );
    const future = await page(`?checked_after=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    assert.equal(future.data.length, 0);
    const bad = await request('GET', '/ownership/checks?cursor=nonsense', tenant);
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().errors[0].pointer, '/cursor');
  });

  test("a vendor named is attached; an unknown vendor, or another organization's, answers 404 and nothing is stored", async () => {
    const screened = await request('POST', '/vendors/screen', enterprise, { vendors: [{ name: 'Harmless Widgets GmbH', external_id: 'V-77' }] });
    assert.equal(screened.statusCode, 201, screened.body);
    const vendorId = screened.json().results[0].vendor_id;
    const attached = await check({ ...blocked, vendor_id: vendorId });
    assert.deepEqual([attached.stored, attached.vendor_id], [true, vendorId]);
    const listed = (await request('GET', `/ownership/checks?vendor_id=${vendorId}`, enterprise)).json();
    assert.deepEqual(
      listed.data.map((d: { id: string; vendor_id: string }) => [d.id, d.vendor_id]),
      [[attached.id, vendorId]],
    );
    const fresh = (await request('POST', '/vendors/screen', enterprise, { vendors: [{ name: 'Quiet Parts Ltd' }] })).json().results[0].vendor_id;
    assert.deepEqual((await request('GET', `/vendors/${fresh}/ownership`, enterprise)).json(), {
      object: 'vendor_ownership',
      vendor_id: fresh,
      status: 'unknown',
      determination: null,
    });

    const status = (await request('GET', `/vendors/${vendorId}/ownership`, enterprise)).json();
    assert.deepEqual([status.status, status.determination.id], ['blocked', attached.id]);
    const later = await check({ ...clear, vendor_id: vendorId });
    assert.equal((await request('GET', `/vendors/${vendorId}/ownership`, enterprise)).json().status, 'clear', 'the newest determination is the status');
    assert.equal(later.vendor_id, vendorId);
    assert.equal((await request('GET', `/vendors/${vendorId}/ownership`, other)).statusCode, 404);

    const before = await harness.database.owner<{ n: number }>('SELECT count(*)::int AS n FROM ownership_checks');
    const elsewhere = await request('POST', '/ownership/check', other, { ...blocked, vendor_id: vendorId });
    assert.equal(elsewhere.statusCode, 404, elsewhere.body);
    assert.equal(elsewhere.json().errors[0].pointer, '/vendor_id');
    const unknown = await request('POST', '/ownership/check', enterprise, { ...blocked, vendor_id: 'ven_00000000000000000000000000' });
    assert.equal(unknown.statusCode, 404);
    assert.deepEqual(await harness.database.owner<{ n: number }>('SELECT count(*)::int AS n FROM ownership_checks'), before);
  });

  test("another organization's determinations are invisible: its id answers 404 and its list is empty of them", async () => {
    const answer = await check({ ...blocked, store: true });
    assert.equal((await request('GET', `/ownership/checks/${answer.id}`, other)).statusCode, 404);
    const theirs = (await request('GET', '/ownership/checks', other)).json();
    assert.equal(
      theirs.data.some((d: { id: string }) => d.id === answer.id),
      false,
    );
  });
});
