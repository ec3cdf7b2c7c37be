/**
 * Delivery end to end, in process: events recorded through the outbox, a delivery worker with a
 * clock the test moves (no sleeping through the retry schedule), and a real HTTP receiver on
 * 127.0.0.1. Signatures are checked with the standardwebhooks package, not with our signer.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, type TestContext, test } from 'node:test';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import type { EventType } from '../../../src/events/event-types.ts';
import { recordEvent } from '../../../src/events/outbox.ts';
import { claimDue } from '../../../src/features/webhooks/delivery/delivery-store.ts';
import { createDeliveryWorker, type DeliveryWorker } from '../../../src/features/webhooks/delivery/worker.ts';
import { AllowList } from '../../../src/webhooks/address-policy.ts';
import { loadSecretBox } from '../../../src/webhooks/secret-box-keys.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import type { TestApp } from '../../helpers/test-app.ts';
import { buildWebhooksTestApp, fakeDns, type Receiver, startReceiver } from '../../helpers/webhooks.ts';

const TIMEOUT_MS = 500;

describe('webhook delivery', () => {
  let harness: TestApp;
  let tenant: TestTenant;
  let receiver: Receiver;
  let now = Date.now();
  const clock = () => new Date(now);
  const advance = (ms: number) => (now += ms);
  const logged: unknown[] = [];
  const dns = fakeDns({ 'rebind.example.com': ['93.184.216.34'] });
  let makeWorker: (options?: { concurrency?: number; timeoutMs?: number }) => DeliveryWorker;
  let worker: DeliveryWorker;

  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers: tenant.headers, ...(payload !== undefined && { payload: payload as object }) });
  /** Records an event; it is due from the database's clock, so the test clock never lags behind it. */
  async function emit(type: EventType, data: Record<string, unknown> = {}) {
    const id = await harness.database.db.withTenant({ organizationId: tenant.organizationId, kind: 'system', id: 'test' }, async (trx) =>
      recordEvent(trx, tenant.organizationId, { type, data }),
    );
    now = Math.max(now, Date.now() + 1);
    return id;
  }
  /** An endpoint for this test only (its path tells its requests apart), deleted when the test ends. */
  async function endpoint(t: TestContext, path: string, events: EventType[] = ['case.opened'], url = receiver.url(path)) {
    const response = await api('POST', '/webhook-endpoints', { url, events });
    assert.equal(response.statusCode, 201, response.body);
    const created = response.json() as { id: string; secret: string };
    t.after(() => harness.app.inject({ method: 'DELETE', url: `/api/v1/webhook-endpoints/${created.id}`, headers: tenant.headers }));
    return created;
  }
  const requestsTo = (path: string) => receiver.received.filter((r) => r.path === path);
  const deliveriesOf = async (endpointId: string) => (await api('GET', `/webhook-endpoints/${endpointId}/deliveries`)).json().data;

  before(async () => {
    receiver = await startReceiver();
    harness = await buildWebhooksTestApp(dns, { env: { WEBHOOK_ALLOWED_HOSTS: `127.0.0.1:${receiver.port}` }, clock });
    tenant = await createTenant(harness.database.owner, { tier: 'defense', admin: true });
    const secrets = await loadSecretBox(undefined, harness.database.db.operator);
    const log = { info: (o: unknown) => logged.push(o), warn: (o: unknown) => logged.push(o), error: (o: unknown) => logged.push(o) };
    makeWorker = ({ concurrency = 10, timeoutMs = TIMEOUT_MS } = {}) =>
      createDeliveryWorker({
        withTenant: harness.database.db.withTenant,
        secrets,
        policy: { allowList: AllowList.parse(`127.0.0.1:${receiver.port}`), allowHttp: false },
        resolve: dns,
        timeoutMs,
        concurrency,
        pollIntervalMs: 20,
        userAgent: 'Gatehouse-Webhooks/test',
        log: log as never,
        clock,
        random: () => 0.5, // no jitter: the schedule to the millisecond
      });
    worker = makeWorker();
  });
  // Events are stamped by the database's clock, and due from then: each test starts ahead of it.
  beforeEach(() => {
    now = Math.max(now, Date.now() + 1_000);
  });
  after(async () => {
    await harness.close();
    await receiver.close();
  });

  test('a delivery is the event as the feed shows it, signed so that a Standard Webhooks verifier accepts it', async (t) => {
    const { id, secret } = await endpoint(t, '/signed');
    const eventId = await emit('case.opened', { case_id: 'case_1', status: 'open' });
    assert.equal(await worker.runOnce(), 1);
    const [request] = requestsTo('/signed');
    assert.ok(request);
    assert.deepEqual(new Webhook(secret).verify(request.body, request.headers as Record<string, string>), JSON.parse(request.body));
    assert.equal(request.headers['webhook-id'], eventId);
    assert.equal(request.headers['webhook-timestamp'], String(Math.floor(now / 1000)));
    assert.equal(request.headers['content-type'], 'application/json');
    assert.match(String(request.headers['user-agent']), /^Gatehouse-Webhooks\//);
    const feed = (await api('GET', `/events?type=case.opened`)).json().data;
    assert.deepEqual(
      JSON.parse(request.body),
      feed.find((e: { id: string }) => e.id === eventId),
    );
    const [delivery] = await deliveriesOf(id);
    assert.deepEqual([delivery.state, delivery.attempts, delivery.history[0].status, delivery.history[0].response_body], ['succeeded', 1, 200, 'ok']);
    assert.equal(await worker.runOnce(), 0, 'nothing more to send');
  });

  test('500s are retried on the schedule (5 s, 5 min, 30 min), with the same webhook-id and a fresh valid signature each time', async (t) => {
    const { id, secret } = await endpoint(t, '/flaky');
    receiver.plan({ status: 500, body: 'down' }, { status: 500 }, { status: 503 });
    const eventId = await emit('case.opened');
    const started = now;
    await worker.runOnce();
    for (const wait of [5_000, 300_000, 1_800_000]) {
      advance(wait - 1);
      assert.equal(await worker.runOnce(), 0, `not before ${wait} ms`);
      advance(1);
      assert.equal(await worker.runOnce(), 1, `at ${wait} ms`);
    }
    const [delivery] = await deliveriesOf(id);
    assert.equal(delivery.state, 'succeeded');
    assert.deepEqual(
      delivery.history.map((a: { status: number }) => a.status),
      [500, 500, 503, 200],
    );
    assert.deepEqual(
      delivery.history.map((a: { attempted_at: string }) => Date.parse(a.attempted_at) - started),
      [0, 5_000, 305_000, 2_105_000],
    );
    assert.equal(delivery.history[0].response_body, 'down');
    const requests = requestsTo('/flaky');
    assert.deepEqual(
      requests.map((r) => r.headers['webhook-id']),
      [eventId, eventId, eventId, eventId],
    );
    for (const request of requests) {
      const timestamp = Number(request.headers['webhook-timestamp']);
      assert.equal(request.headers['webhook-signature'], new Webhook(secret).sign(eventId, new Date(timestamp * 1000), request.body));
    }
    assert.equal((await api('GET', `/webhook-endpoints/${id}`)).json().failing_since, null, 'the success ended the failing streak');
  });

  test('Retry-After is honoured', async (t) => {
    const { id } = await endpoint(t, '/busy');
    receiver.plan({ status: 429, headers: { 'retry-after': '120' } });
    await emit('case.opened');
    await worker.runOnce();
    advance(5_000);
    assert.equal(await worker.runOnce(), 0, 'not after the 5 s of the schedule');
    advance(115_000);
    assert.equal(await worker.runOnce(), 1, 'after the 120 s asked for');
    assert.equal((await deliveriesOf(id))[0].state, 'succeeded');
  });

  test('a round ends after eight attempts; an endpoint failing for five days is disabled, and that is audited', async (t) => {
    const { id } = await endpoint(t, '/dead');
    receiver.plan(...Array.from({ length: 9 }, () => ({ status: 500 })));
    await emit('case.opened');
    const started = now;
    for (let attempt = 1; attempt <= 8; attempt++) {
      assert.equal(await worker.runOnce(), 1, `attempt ${attempt}`);
      const [delivery] = await deliveriesOf(id);
      if (attempt < 8) now = Date.parse(delivery.next_attempt_at);
      else assert.deepEqual([delivery.state, delivery.attempts, delivery.next_attempt_at], ['failed', 8, null]);
    }
    assert.equal(now - started, (5 + 300 + 1_800 + 7_200 + 18_000 + 36_000 + 36_000) * 1000, 'about 27.6 hours');
    const failing = (await api('GET', `/webhook-endpoints/${id}`)).json();
    assert.deepEqual([failing.enabled, Date.parse(failing.failing_since)], [true, started]);

    now = started + 5 * 24 * 3600 * 1000;
    await emit('case.opened');
    assert.equal(await worker.runOnce(), 1);
    const disabled = (await api('GET', `/webhook-endpoints/${id}`)).json();
    assert.deepEqual([disabled.enabled, disabled.disabled_reason], [false, 'failing']);
    const [audit] = await harness.database.owner<{ actor_type: string; actor_id: string; details: Record<string, unknown> }>(
      "SELECT actor_type, actor_id, details FROM audit_events WHERE action = 'webhook_endpoint.disabled' AND target_id = $1",
      [id],
    );
    assert.deepEqual([audit?.actor_type, audit?.actor_id, audit?.details.reason], ['system', 'webhook-delivery', 'failing']);
  });

  test('410 Gone disables the endpoint at once and cancels what was still pending for it', async (t) => {
    const { id } = await endpoint(t, '/gone');
    receiver.plan({ status: 500 });
    const earlier = await emit('case.opened');
    await worker.runOnce(); // 500: due again in 5 s
    receiver.plan({ status: 410 });
    await emit('case.opened');
    assert.equal(await worker.runOnce(), 1);
    const endpointNow = (await api('GET', `/webhook-endpoints/${id}`)).json();
    assert.deepEqual([endpointNow.enabled, endpointNow.disabled_reason], [false, 'gone']);
    const states = Object.fromEntries((await deliveriesOf(id)).map((d: { event_id: string; state: string }) => [d.event_id, d.state]));
    assert.equal(states[earlier], 'cancelled');
    assert.deepEqual(Object.values(states).sort(), ['cancelled', 'failed']);
    await emit('case.opened');
    advance(3_600_000);
    await worker.runOnce();
    assert.equal(requestsTo('/gone').length, 2, 'nothing more is sent to it');
    assert.equal((await deliveriesOf(id)).length, 2, 'no delivery for an event after it was disabled');
  });

  test('a receiver that does not answer in time is a timeout, retried', async (t) => {
    const { id } = await endpoint(t, '/slow');
    receiver.plan('hang');
    await emit('case.opened');
    const started = performance.now();
    await worker.runOnce();
    assert.ok(performance.now() - started >= TIMEOUT_MS);
    const [delivery] = await deliveriesOf(id);
    assert.deepEqual([delivery.state, delivery.history[0].outcome, delivery.history[0].status], ['pending', 'timeout', null]);
  });

  test('a host that resolves to a private address at delivery time is refused without a request (DNS rebinding)', async (t) => {
    const { id } = await endpoint(t, '/rebind', ['case.opened'], `https://rebind.example.com:${receiver.port}/rebind`);
    dns.table['rebind.example.com'] = ['127.0.0.1'];
    t.after(() => (dns.table['rebind.example.com'] = ['93.184.216.34']));
    await emit('case.opened');
    await worker.runOnce();
    const [delivery] = await deliveriesOf(id);
    assert.equal(delivery.history[0].outcome, 'refused');
    assert.match(delivery.history[0].error, /resolves to 127\.0\.0\.1/);
    assert.equal(requestsTo('/rebind').length, 0);
  });

  test('after a rotation each delivery carries both signatures, and either secret verifies it', async (t) => {
    const { id, secret: previous } = await endpoint(t, '/rotated');
    const { secret: current } = (await api('POST', `/webhook-endpoints/${id}/rotate-secret`)).json();
    await emit('case.opened');
    await worker.runOnce();
    const [request] = requestsTo('/rotated');
    assert.ok(request);
    const signatures = String(request.headers['webhook-signature']).split(' ');
    assert.equal(signatures.length, 2);
    // The test clock is days ahead by now, past the library's 5-minute check: compare signatures instead.
    const [webhookId, timestamp] = [String(request.headers['webhook-id']), new Date(Number(request.headers['webhook-timestamp']) * 1000)];
    for (const secret of [previous, current]) assert.ok(signatures.includes(new Webhook(secret).sign(webhookId, timestamp, request.body)));
  });

  test('a redelivery and a test event are sent with the webhook-id of their event', async (t) => {
    const { id } = await endpoint(t, '/again');
    const eventId = await emit('case.opened');
    await worker.runOnce();
    assert.equal((await api('POST', `/webhook-endpoints/${id}/deliveries/${eventId}/redeliver`)).statusCode, 202);
    const test = (await api('POST', `/webhook-endpoints/${id}/test`)).json();
    await worker.runOnce();
    const requests = requestsTo('/again');
    assert.deepEqual(requests.map((r) => r.headers['webhook-id']).sort(), [eventId, eventId, test.event_id].sort());
    const sent = requests.find((r) => r.headers['webhook-id'] === test.event_id);
    assert.deepEqual(JSON.parse(sent?.body ?? '{}').data, { endpoint_id: id });
    const [again] = (await deliveriesOf(id)).filter((d: { event_id: string }) => d.event_id === eventId);
    assert.deepEqual([again.state, again.attempts], ['succeeded', 2]);
  });

  test('workers side by side send each delivery once (FOR UPDATE SKIP LOCKED)', async (t) => {
    await endpoint(t, '/shared');
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await emit('case.opened', { n: i }));
    const [a, b] = [makeWorker({ concurrency: 3 }), makeWorker({ concurrency: 3 })];
    const counts = await Promise.all([a.runOnce(), b.runOnce()]);
    assert.deepEqual(counts, [3, 3]);
    assert.deepEqual(
      requestsTo('/shared')
        .map((r) => r.headers['webhook-id'])
        .sort(),
      ids.sort(),
    );
  });

  test('a worker that dies after claiming leaves the delivery to be sent again once its lease ends, with the same webhook-id', async (t) => {
    const { id } = await endpoint(t, '/orphan');
    const eventId = await emit('case.opened');
    const [claimed] = await claimDue(harness.database.db.withTenant, {
      token: 'dead-worker',
      dueAt: clock(),
      leaseUntil: new Date(now + 2 * TIMEOUT_MS + 1_000),
      max: 1,
    });
    assert.equal(claimed?.eventId, eventId); // … and then that worker never comes back
    assert.equal(await worker.runOnce(), 0, 'leased: not sent twice at once');
    advance(2 * TIMEOUT_MS + 1_000);
    assert.equal(await worker.runOnce(), 1);
    assert.deepEqual(
      requestsTo('/orphan').map((r) => r.headers['webhook-id']),
      [eventId],
    );
    assert.equal((await deliveriesOf(id))[0].state, 'succeeded');
  });

  test("claiming is refused inside an organization's transaction: only the worker's, with no organization, reaches across", async () => {
    const asTenant = harness.database.db.withTenant({ organizationId: tenant.organizationId, kind: 'system', id: 'test' }, (trx) =>
      sql`SELECT * FROM claim_webhook_deliveries(now(), now(), 10, 'sneaky')`.execute(trx),
    );
    await assert.rejects(asTenant, /outside any organization's transaction/);
  });

  test('the running worker delivers on its own and stops cleanly', async (t) => {
    await endpoint(t, '/running');
    const running = makeWorker();
    running.start();
    const eventId = await emit('case.opened');
    const [request] = await receiver.waitFor(receiver.received.length + 1);
    await running.stop();
    assert.ok(request);
    assert.equal(requestsTo('/running')[0]?.headers['webhook-id'], eventId);
  });

  test('stopping interrupts a delivery in flight at once; it is sent again, with its webhook-id, once its lease ends', async (t) => {
    const { id } = await endpoint(t, '/interrupted');
    receiver.plan('hang');
    const patient = makeWorker({ timeoutMs: 60_000 });
    patient.start();
    const eventId = await emit('case.opened');
    await receiver.waitFor(receiver.received.length + 1);
    const stopping = performance.now();
    await patient.stop();
    assert.ok(performance.now() - stopping < 5_000, 'not the 60 s timeout');
    assert.deepEqual((await deliveriesOf(id))[0].history, [], 'an interrupted attempt is not an outcome');
    advance(2 * 60_000 + 1_000);
    assert.equal(await worker.runOnce(), 1);
    assert.deepEqual(
      requestsTo('/interrupted').map((r) => r.headers['webhook-id']),
      [eventId, eventId],
    );
  });

  test('the worker logs the host, never the path (a capability) or a secret', () => {
    const text = JSON.stringify(logged);
    assert.match(text, /"host":"127\.0\.0\.1:\d+"/);
    assert.doesNotMatch(text, /whsec_|\/signed|\/flaky/);
  });
});
