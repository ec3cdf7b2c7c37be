/**
 * Managing webhook endpoints through the API: admin only, the secret shown once and stored
 * sealed, URLs checked against the SSRF policy (names resolved through DNS the test controls),
 * changes audited, another organization's endpoints and deliveries answering 404, the outbox
 * fanned out to subscribers, and the events feed.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { EventType } from '../../../src/events/event-types.ts';
import { recordEvent } from '../../../src/events/outbox.ts';
import { importList } from '../../../src/lists/list-import.ts';
import { parseOfacLegacy } from '../../../src/screening/lists/ofac-legacy.ts';
import { createKey, createTenant, type TestTenant } from '../../helpers/credentials.ts';
import type { TestApp } from '../../helpers/test-app.ts';
import { buildWebhooksTestApp, fakeDns } from '../../helpers/webhooks.ts';

const dns = fakeDns({
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example.com': ['10.1.2.3'],
  'mixed.example.com': ['93.184.216.34', '192.168.0.10'],
  'metadata.example.com': ['169.254.169.254'],
  localhost: ['127.0.0.1', '::1'],
});

describe('webhook endpoints', () => {
  let harness: TestApp;
  let admin: TestTenant;
  let standard: { headers: { authorization: string } };
  let other: TestTenant;
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, tenant: { headers: Record<string, string> } = admin, payload?: unknown) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers: tenant.headers, ...(payload !== undefined && { payload: payload as object }) });
  const create = (payload: unknown, tenant: TestTenant = admin) => call('POST', '/webhook-endpoints', tenant, payload);
  const emit = (organizationId: string, type: EventType, data: Record<string, unknown> = {}) =>
    harness.database.db.withTenant({ organizationId, kind: 'system', id: 'test' }, async (trx) => recordEvent(trx, organizationId, { type, data }));

  before(async () => {
    harness = await buildWebhooksTestApp(dns, { env: { WEBHOOK_ALLOWED_HOSTS: 'receiver.test' } });
    admin = await createTenant(harness.database.owner, { tier: 'defense', admin: true });
    standard = await createKey(harness.database.owner, admin.organizationId);
    other = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
  });
  after(() => harness.close());

  test('creating one answers its signing secret once; reading it back never does, and the database holds it sealed', async () => {
    const response = await create({
      url: 'https://hooks.example.com/gatehouse',
      events: ['screening.completed', 'lists.updated'],
      description: 'security desk',
    });
    assert.equal(response.statusCode, 201, response.body);
    const created = response.json();
    assert.match(created.id, /^we_[0-9a-z]{26}$/);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/=]{44}$/);
    assert.equal(response.headers.location, `/api/v1/webhook-endpoints/${created.id}`);
    assert.deepEqual([created.enabled, created.disabled_reason, created.events], [true, null, ['screening.completed', 'lists.updated']]);

    const read = await call('GET', `/webhook-endpoints/${created.id}`);
    assert.equal(read.statusCode, 200);
    assert.equal(read.json().secret, undefined);
    const listed = await call('GET', '/webhook-endpoints');
    assert.ok(listed.json().data.some((e: { id: string }) => e.id === created.id));
    assert.doesNotMatch(listed.body, /whsec_/);

    const everything = JSON.stringify(await harness.database.owner('SELECT * FROM webhook_endpoints'));
    assert.ok(!everything.includes(created.secret.slice(6)), 'the secret is not stored in the clear');
    const [audit] = await harness.database.owner<{ details: Record<string, unknown>; actor_id: string }>(
      "SELECT details, actor_id FROM audit_events WHERE action = 'webhook_endpoint.created' AND target_id = $1",
      [created.id],
    );
    assert.deepEqual(audit?.details, { host: 'hooks.example.com', events: ['screening.completed', 'lists.updated'] });
    assert.doesNotMatch(JSON.stringify(audit), /whsec_|gatehouse/);
  });

  test('a key without admin rights may not manage endpoints, but may read the events feed', async () => {
    for (const [method, url] of [
      ['GET', '/webhook-endpoints'],
      ['POST', '/webhook-endpoints'],
    ] as const) {
      const response = await call(
        method,
        url,
        standard,
        method === 'POST' ? { url: 'https://hooks.example.com/x', events: ['screening.completed'] } : undefined,
      );
      assert.equal(response.statusCode, 403, `${method} ${url}`);
    }
    assert.equal((await call('GET', '/events', standard)).statusCode, 200);
  });

  test('a URL that could reach inside the network is refused at creation, naming /url', async () => {
    const refusals: [string, RegExp][] = [
      ['http://hooks.example.com/x', /https/],
      ['https://localhost/x', /resolves to 127\.0\.0\.1/],
      ['https://127.0.0.1:8080/x', /127\.0\.0\.1/],
      ['https://10.0.0.5/x', /10\.0\.0\.5/],
      ['https://[::1]/x', /::1/],
      ['https://169.254.169.254/latest/meta-data/', /169\.254\.169\.254/],
      ['https://internal.example.com/x', /resolves to 10\.1\.2\.3/],
      ['https://mixed.example.com/x', /resolves to 192\.168\.0\.10/],
      ['https://metadata.example.com/x', /169\.254\.169\.254/],
      ['https://nowhere.example.com/x', /could not be resolved/],
      ['https://user:secret@hooks.example.com/x', /user name or password/],
    ];
    for (const [url, reason] of refusals) {
      const response = await create({ url, events: ['screening.completed'] });
      assert.equal(response.statusCode, 400, url);
      const problem = response.json();
      assert.equal(problem.code, 'validation_failed');
      assert.equal(problem.errors[0].pointer, '/url', url);
      assert.match(problem.errors[0].detail, reason, url);
    }
    const count = await harness.database.owner<{ n: number }>(
      "SELECT count(*)::int AS n FROM webhook_endpoints WHERE url LIKE '%internal%' OR url LIKE '%169.254%'",
    );
    assert.equal(count[0]?.n, 0);
  });

  test('an allow-listed host (WEBHOOK_ALLOWED_HOSTS) may be private and plain http', async () => {
    dns.table['receiver.test'] = ['127.0.0.1'];
    const response = await create({ url: 'http://receiver.test:9999/hook', events: ['screening.completed'] });
    assert.equal(response.statusCode, 201, response.body);
  });

  test('events must be known types, at least one, each once; unknown fields are refused', async () => {
    const cases: [unknown, string][] = [
      [{ url: 'https://hooks.example.com/x', events: ['screening_completed'] }, '/events/0'],
      [{ url: 'https://hooks.example.com/x', events: [] }, '/events'],
      [{ url: 'https://hooks.example.com/x', events: ['case.opened', 'case.opened'] }, '/events/1'],
      [{ url: 'https://hooks.example.com/x', events: ['case.opened'], secret: 'mine' }, '/secret'],
      [{ events: ['case.opened'] }, '/url'],
    ];
    for (const [payload, pointer] of cases) {
      const response = await create(payload);
      assert.equal(response.statusCode, 400, JSON.stringify(payload));
      assert.ok(
        response.json().errors.some((e: { pointer: string }) => e.pointer === pointer),
        `${JSON.stringify(payload)}: ${response.body}`,
      );
    }
  });

  test('changes are checked like a creation, audited, and disabling cancels pending deliveries', async () => {
    const { id } = (await create({ url: 'https://hooks.example.com/a', events: ['screening.completed'] })).json();
    const eventId = await emit(admin.organizationId, 'screening.completed', { screening_id: 'scr_x' });
    const pending = (await call('GET', `/webhook-endpoints/${id}/deliveries`)).json();
    assert.deepEqual(
      pending.data.map((d: { event_id: string; state: string }) => [d.event_id, d.state]),
      [[eventId, 'pending']],
    );

    assert.equal((await call('PATCH', `/webhook-endpoints/${id}`, admin, { url: 'https://internal.example.com/a' })).statusCode, 400);
    assert.equal((await call('PATCH', `/webhook-endpoints/${id}`, admin, {})).statusCode, 400, 'an empty change is refused');
    const changed = await call('PATCH', `/webhook-endpoints/${id}`, admin, { events: ['case.opened'], description: 'changed', enabled: false });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual([changed.json().events, changed.json().enabled, changed.json().disabled_reason], [['case.opened'], false, 'manual']);
    const cancelled = (await call('GET', `/webhook-endpoints/${id}/deliveries?state=cancelled`)).json();
    assert.deepEqual(
      cancelled.data.map((d: { event_id: string }) => d.event_id),
      [eventId],
    );
    assert.equal((await call('POST', `/webhook-endpoints/${id}/test`)).statusCode, 409, 'a disabled endpoint gets no test');

    const enabled = (await call('PATCH', `/webhook-endpoints/${id}`, admin, { enabled: true })).json();
    assert.deepEqual([enabled.enabled, enabled.disabled_reason, enabled.disabled_at], [true, null, null]);
    const actions = await harness.database.owner<{ action: string; details: { changed: string[] } }>(
      "SELECT action, details FROM audit_events WHERE target_id = $1 AND action = 'webhook_endpoint.updated' ORDER BY seq",
      [id],
    );
    assert.deepEqual(
      actions.map((a) => a.details.changed),
      [['description', 'enabled', 'events'], ['enabled']],
    );
  });

  test('each event goes to the enabled endpoints subscribed to its type, in its own organization only', async () => {
    const subscribed = (await create({ url: 'https://hooks.example.com/cases', events: ['case.opened'] })).json();
    const elsewhere = (await create({ url: 'https://hooks.example.com/cases', events: ['case.opened'] }, other)).json();
    const eventId = await emit(admin.organizationId, 'case.opened', { case_id: 'case_1' });
    await emit(admin.organizationId, 'visitor.checked_in', { session_id: 'ses_1' });
    const rows = await harness.database.owner<{ endpoint_id: string; event_id: string }>(
      'SELECT endpoint_id, event_id FROM webhook_deliveries WHERE event_id = $1',
      [eventId],
    );
    assert.ok(rows.some((r) => r.endpoint_id === subscribed.id));
    assert.ok(!rows.some((r) => r.endpoint_id === elsewhere.id));
    const types = await harness.database.owner<{ type: string }>(
      'SELECT e.type FROM webhook_deliveries d JOIN event_outbox e ON e.organization_id = d.organization_id AND e.id = d.event_id WHERE d.endpoint_id = $1',
      [subscribed.id],
    );
    assert.deepEqual(
      types.map((t) => t.type),
      ['case.opened'],
    );
  });

  test('rotating the secret answers a new one once; the previous one signs for 24 more hours', async () => {
    const created = (await create({ url: 'https://hooks.example.com/r', events: ['case.opened'] })).json();
    const rotated = await call('POST', `/webhook-endpoints/${created.id}/rotate-secret`);
    assert.equal(rotated.statusCode, 200, rotated.body);
    assert.notEqual(rotated.json().secret, created.secret);
    const expires = Date.parse(rotated.json().previous_secret_expires_at) - Date.now();
    assert.ok(Math.abs(expires - 24 * 3600_000) < 60_000, `${expires}`);
    assert.equal((await call('GET', `/webhook-endpoints/${created.id}`)).json().secret, undefined);
  });

  test('a test event and a redelivery are queued for that endpoint alone, with the event id as webhook-id', async () => {
    const { id } = (await create({ url: 'https://hooks.example.com/t', events: ['visitor.checked_out'] })).json();
    const queued = await call('POST', `/webhook-endpoints/${id}/test`);
    assert.equal(queued.statusCode, 202, queued.body);
    assert.deepEqual([queued.json().event_type, queued.json().state, queued.json().attempts], ['webhook.test', 'pending', 0]);

    const unsubscribed = await emit(admin.organizationId, 'case.disposition_applied', { case_id: 'case_9' });
    const redelivery = await call('POST', `/webhook-endpoints/${id}/deliveries/${unsubscribed}/redeliver`);
    assert.equal(redelivery.statusCode, 202, redelivery.body);
    assert.deepEqual([redelivery.json().event_id, redelivery.json().state], [unsubscribed, 'pending']);
    const missing = await call('POST', `/webhook-endpoints/${id}/deliveries/evt_00000000000000000000000000/redeliver`);
    assert.equal(missing.statusCode, 404);
  });

  test("another organization's endpoints, deliveries and events answer 404, as ids that do not exist", async () => {
    const mine = (await create({ url: 'https://hooks.example.com/mine', events: ['case.opened'] })).json();
    const eventId = await emit(admin.organizationId, 'case.opened');
    const theirs = other;
    const attempts: ['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown?][] = [
      ['GET', `/webhook-endpoints/${mine.id}`],
      ['PATCH', `/webhook-endpoints/${mine.id}`, { enabled: false }],
      ['DELETE', `/webhook-endpoints/${mine.id}`],
      ['POST', `/webhook-endpoints/${mine.id}/rotate-secret`],
      ['POST', `/webhook-endpoints/${mine.id}/test`],
      ['GET', `/webhook-endpoints/${mine.id}/deliveries`],
      ['POST', `/webhook-endpoints/${mine.id}/deliveries/${eventId}/redeliver`],
    ];
    for (const [method, url, payload] of attempts) {
      const response = await call(method, url, theirs, payload);
      assert.equal(response.statusCode, 404, `${method} ${url}: ${response.body}`);
      assert.equal(response.json().code, 'not_found');
    }
    const theirEndpoint = (await create({ url: 'https://hooks.example.com/theirs', events: ['case.opened'] }, theirs)).json();
    const crossEvent = await call('POST', `/webhook-endpoints/${theirEndpoint.id}/deliveries/${eventId}/redeliver`, theirs);
    assert.equal(crossEvent.statusCode, 404, 'my event cannot be sent to their endpoint');
    const theirEvents = (await call('GET', '/events', theirs)).json();
    assert.ok(!theirEvents.data.some((e: { id: string }) => e.id === eventId));
    assert.equal((await call('GET', `/webhook-endpoints/${mine.id}`)).json().enabled, true, 'nothing they did changed it');
  });

  test('deleting an endpoint removes it and its deliveries, and is audited', async () => {
    const { id } = (await create({ url: 'https://hooks.example.com/d', events: ['case.opened'] })).json();
    await emit(admin.organizationId, 'case.opened');
    const deleted = await call('DELETE', `/webhook-endpoints/${id}`);
    assert.deepEqual(deleted.json(), { object: 'webhook_endpoint', id, deleted: true });
    assert.equal((await call('GET', `/webhook-endpoints/${id}`)).statusCode, 404);
    const left = await harness.database.owner<{ n: number }>('SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1', [id]);
    assert.equal(left[0]?.n, 0);
    const audited = await harness.database.owner("SELECT 1 FROM audit_events WHERE action = 'webhook_endpoint.deleted' AND target_id = $1", [id]);
    assert.equal(audited.length, 1);
  });

  test('the events feed pages oldest first after a cursor, filters by type, and shows each event as its webhooks carry it', async () => {
    const tenant = await createTenant(harness.database.owner, { tier: 'defense' });
    const types: EventType[] = ['screening.completed', 'case.opened', 'screening.completed', 'visitor.checked_in', 'screening.completed'];
    const ids: string[] = [];
    for (const [i, type] of types.entries()) ids.push(await emit(tenant.organizationId, type, { n: i }));
    const get = async (query: string) => (await harness.app.inject({ url: `/api/v1/events${query}`, headers: tenant.headers })).json();
    const first = await get('?limit=2');
    assert.deepEqual(
      first.data.map((e: { id: string }) => e.id),
      ids.slice(0, 2),
    );
    assert.equal(first.has_more, true);
    const rest = await get(`?limit=10&after=${ids[1]}`);
    assert.deepEqual(
      rest.data.map((e: { id: string }) => e.id),
      ids.slice(2),
    );
    assert.equal(rest.has_more, false);
    const screenings = await get('?type=screening.completed');
    assert.deepEqual(
      screenings.data.map((e: { data: { n: number } }) => e.data.n),
      [0, 2, 4],
    );
    const two = await get('?type=case.opened&type=visitor.checked_in');
    assert.deepEqual(
      two.data.map((e: { type: string }) => e.type),
      ['case.opened', 'visitor.checked_in'],
    );
    assert.deepEqual(Object.keys(first.data[0]).sort(), ['data', 'id', 'object', 'timestamp', 'type']);
    const refused = await harness.app.inject({ url: '/api/v1/events?type=screening_completed', headers: tenant.headers });
    assert.equal(refused.statusCode, 400);
  });

  test('subscribing the same URL to the same events again answers 409 with the existing endpoint; other events make another', async () => {
    const first = await create({ url: 'https://hooks.example.com/twice', events: ['case.opened', 'screening.completed'] });
    assert.equal(first.statusCode, 201);
    const again = await create({ url: 'https://hooks.example.com/twice', events: ['screening.completed', 'case.opened'] });
    assert.deepEqual([again.statusCode, again.json().code, again.json().endpoint_id], [409, 'conflict', first.json().id]);
    assert.equal(again.json().secret, undefined, 'the secret is never shown again');
    assert.equal((await create({ url: 'https://hooks.example.com/twice', events: ['case.opened'] })).statusCode, 201);
  });

  test('the events feed reads newest first by cursor, each page in the order the walk began, and one event by id', async () => {
    const tenant = await createTenant(harness.database.owner, { tier: 'defense' });
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push(await emit(tenant.organizationId, 'screening.completed', { n }));
    const get = async (query: string) => (await harness.app.inject({ url: `/api/v1/events${query}`, headers: tenant.headers })).json();
    const newest = await get('?order=newest&limit=2');
    assert.deepEqual(
      newest.data.map((e: { id: string }) => e.id),
      [ids[4], ids[3]],
    );
    const older = await get(`?limit=2&cursor=${newest.next_cursor}`);
    assert.deepEqual(
      older.data.map((e: { id: string }) => e.id),
      [ids[2], ids[1]],
      'the cursor keeps the order, without order= again',
    );
    const last = await get(`?limit=2&cursor=${older.next_cursor}`);
    assert.deepEqual([last.data.map((e: { id: string }) => e.id), last.has_more, last.next_cursor], [[ids[0]], false, null]);
    const oldest = await get('?limit=3');
    assert.deepEqual(
      (await get(`?cursor=${oldest.next_cursor}`)).data.map((e: { id: string }) => e.id),
      ids.slice(3),
    );
    assert.equal((await harness.app.inject({ url: '/api/v1/events?cursor=bm90LWEtY3Vyc29y', headers: tenant.headers })).statusCode, 400);

    const one = await harness.app.inject({ url: `/api/v1/events/${ids[2]}`, headers: tenant.headers });
    assert.deepEqual([one.statusCode, one.json().id, one.json().data], [200, ids[2], { n: 2 }]);
    const other = await createTenant(harness.database.owner, { tier: 'defense' });
    assert.equal(
      (await harness.app.inject({ url: `/api/v1/events/${ids[2]}`, headers: other.headers })).statusCode,
      404,
      "another organization's event is not found",
    );
  });

  test('a list version that becomes active is an event in every organization, delivered to its subscribers', async () => {
    const { id } = (await create({ url: 'https://hooks.example.com/lists', events: ['lists.updated'] })).json();
    const outcome = await importList(harness.database.db.lists, {
      list: 'OFAC_SDN',
      format: 'ofac-legacy',
      files: [],
      sourceSha256: 'e'.repeat(64),
      entities: parseOfacLegacy('OFAC_SDN', { main: fs.readFileSync(new URL('../../fixtures/ofac/sdn.csv', import.meta.url), 'latin1') }).entities,
      warnings: [],
    });
    assert.equal(outcome.status, 'imported');
    const versionId = outcome.status === 'imported' ? outcome.version.id : '';
    const events = await harness.database.owner<{ organization_id: string; data: Record<string, unknown> }>(
      "SELECT organization_id, data FROM event_outbox WHERE type = 'lists.updated' AND data->>'version_id' = $1",
      [versionId],
    );
    const organizations = await harness.database.owner<{ id: string }>('SELECT id FROM organizations ORDER BY id');
    assert.deepEqual(
      events.map((e) => e.organization_id).sort(),
      organizations.map((o) => o.id),
    );
    assert.deepEqual(Object.keys(events[0]?.data ?? {}).sort(), [
      'added',
      'changed',
      'entity_count',
      'list',
      'previous_version_id',
      'published_on',
      'removed',
      'version_id',
    ]);
    const deliveries = (await call('GET', `/webhook-endpoints/${id}/deliveries`)).json();
    assert.deepEqual(
      deliveries.data.map((d: { event_type: string; state: string }) => [d.event_type, d.state]),
      [['lists.updated', 'pending']],
    );
    const feed = (await call('GET', '/events?type=lists.updated')).json();
    assert.equal(feed.data.at(-1).data.version_id, versionId);
  });
});
