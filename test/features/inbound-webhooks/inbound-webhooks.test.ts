/**
 * The four inbound receivers: acknowledged with 200, JSON only, size-limited, and, once the
 * organization set an inbound secret, only with a valid Standard Webhooks signature made by an
 * independent signer (the standardwebhooks package). A replayed webhook-id is recorded once.
 * Member names that could be personal data are kept as `<key>`.
 * (That nothing but key paths is kept or logged is proven on a running server: test/webhooks-process.test.ts.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createKey, createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';

const KINDS = ['screening_completed', 'visitor_checked_in', 'visitor_checked_out', 'session_escalated'];
const payload = { session_id: 'ses_01', status: 'checked_in', visitor: { badge: 'V-7' } };

describe('inbound webhooks', () => {
  let harness: TestApp;
  let tenant: TestTenant;
  let admin: { headers: { authorization: string } };
  const receive = (kind: string, body: string, headers: Record<string, string> = {}, who: { headers: Record<string, string> } = tenant) =>
    harness.app.inject({
      method: 'POST',
      url: `/api/v1/webhooks/${kind}`,
      headers: { 'content-type': 'application/json', ...who.headers, ...headers },
      payload: body,
    });
  const signed = (secret: string, body: string, id: string, at = new Date()) => ({
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(id, at, body),
  });
  const receipts = async () => (await harness.app.inject({ url: '/api/v1/inbound-webhooks?limit=100', headers: tenant.headers })).json().data;

  before(async () => {
    harness = await buildTestApp({ env: { BODY_LIMIT_BYTES: '4096' } });
    tenant = await createTenant(harness.database.owner, { tier: 'defense' });
    admin = await createKey(harness.database.owner, tenant.organizationId, { admin: true });
  });
  after(() => harness.close());

  test('each of the four kinds is acknowledged with 200 and a receipt holding the key paths', async () => {
    for (const kind of KINDS) {
      const response = await receive(kind, JSON.stringify(payload));
      assert.equal(response.statusCode, 200, `${kind}: ${response.body}`);
      const ack = response.json();
      assert.deepEqual([ack.received, ack.duplicate], [true, false]);
      assert.match(ack.id, /^iwh_[0-9a-z]{26}$/);
    }
    const [latest] = await receipts();
    assert.deepEqual([latest.kind, latest.key_paths, latest.signed], ['session_escalated', ['session_id', 'status', 'visitor', 'visitor.badge'], false]);
    assert.equal(typeof latest.request_id, 'string');
  });

  test('member names that are personal data are neither stored nor answered: only the shape, with `<key>` in their place', async () => {
    const body = JSON.stringify({ attendees: { 'jane.doe@example.com': { status: 'in' }, 'Jane Doe': { status: 'out' } }, 'com.acme.site': 'HQ' });
    const response = await receive('visitor_checked_in', body);
    assert.equal(response.statusCode, 200, response.body);
    const answered = (await receipts()).find((r: { id: string }) => r.id === response.json().id);
    assert.deepEqual(answered.key_paths, ['attendees', 'attendees.<key>', 'attendees.<key>.status', 'com\\.acme\\.site']);
    const rows = await harness.database.owner<{ row: string }>('SELECT t::text AS row FROM inbound_webhook_receipts t WHERE id = $1', [response.json().id]);
    assert.equal(rows.length, 1);
    assert.match(rows[0]?.row ?? '', /attendees/);
    assert.doesNotMatch(rows[0]?.row ?? '', /jane|doe|example/i);
  });

  test('the OpenAPI document tells integrators which member names are kept and how dots are escaped', async () => {
    const document = (await harness.app.inject({ url: '/api/v1/openapi.json' })).json();
    const described = [document.paths['/api/v1/webhooks/visitor_checked_in'].post.description, document.paths['/api/v1/inbound-webhooks'].get.description];
    for (const description of described) {
      assert.match(description, /`<key>`/);
      assert.match(description, /`\\\.`/);
    }
  });

  test('JSON objects only (415, 400), within the size limit (413), with a credential (401)', async () => {
    const asText = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/visitor_checked_in',
      headers: { ...tenant.headers, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    assert.deepEqual([asText.statusCode, asText.json().code], [415, 'unsupported_media_type']);
    const form = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/visitor_checked_in',
      headers: { ...tenant.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'a=b',
    });
    assert.equal(form.statusCode, 415);
    const utf16 = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/visitor_checked_in',
      headers: { ...tenant.headers, 'content-type': 'application/json; charset=utf-16' },
      payload: '{}',
    });
    assert.deepEqual([utf16.statusCode, utf16.json().code], [415, 'unsupported_media_type'], 'another charset is refused, not misread');
    const broken = await receive('visitor_checked_in', '{"visitor": "Jane Roe"');
    assert.deepEqual([broken.statusCode, broken.json().code], [400, 'malformed_json']);
    assert.doesNotMatch(broken.body, /Jane/, 'the error repeats nothing of the body');
    assert.equal((await receive('visitor_checked_in', '["a list"]')).statusCode, 400);
    assert.equal((await receive('visitor_checked_in', '')).statusCode, 400);
    const large = await receive('visitor_checked_in', JSON.stringify({ blob: 'x'.repeat(5000) }));
    assert.deepEqual([large.statusCode, large.json().code], [413, 'payload_too_large']);
    const anonymous = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/visitor_checked_in',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    assert.equal(anonymous.statusCode, 401);
    assert.equal((await receive('visitor_left', '{}')).statusCode, 404, 'only the four kinds');
  });

  describe('with an inbound secret', () => {
    let secret: string;
    before(async () => {
      const forbidden = await harness.app.inject({ method: 'POST', url: '/api/v1/inbound-webhooks/secret', headers: tenant.headers });
      assert.equal(forbidden.statusCode, 403, 'a standard key may not set it');
      const response = await harness.app.inject({ method: 'POST', url: '/api/v1/inbound-webhooks/secret', headers: admin.headers });
      assert.equal(response.statusCode, 201, response.body);
      secret = response.json().secret;
      assert.match(secret, /^whsec_/);
    });

    test('a valid signature is accepted and the receipt says it was signed', async () => {
      const body = JSON.stringify(payload);
      const response = await receive('visitor_checked_out', body, signed(secret, body, 'msg_valid'));
      assert.equal(response.statusCode, 200, response.body);
      assert.equal((await receipts())[0].signed, true);
    });

    test('no signature, another secret, a changed body or a timestamp over 5 minutes off answer 401 invalid_signature', async () => {
      const body = JSON.stringify(payload);
      const before = (await receipts()).length;
      const cases: [Record<string, string>, string, string][] = [
        [{}, body, 'missing_headers'],
        [signed(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, body, 'msg_other'), body, 'invalid_signature'],
        [signed(secret, body, 'msg_changed'), body.replace('checked_in', 'checked_out'), 'invalid_signature'],
        [signed(secret, body, 'msg_stale', new Date(Date.now() - 6 * 60_000)), body, 'stale_timestamp'],
        [signed(secret, body, 'msg_future', new Date(Date.now() + 6 * 60_000)), body, 'stale_timestamp'],
      ];
      for (const [headers, sent, reason] of cases) {
        const response = await receive('visitor_checked_in', sent, headers);
        assert.equal(response.statusCode, 401, reason);
        assert.deepEqual([response.json().code, response.json().reason], ['invalid_signature', reason]);
      }
      assert.equal((await receipts()).length, before, 'nothing recorded');
    });

    test('a replayed webhook-id is acknowledged again and recorded once', async () => {
      const body = JSON.stringify(payload);
      const first = await receive('session_escalated', body, signed(secret, body, 'msg_once'));
      const replay = await receive('session_escalated', body, signed(secret, body, 'msg_once'));
      assert.equal(replay.statusCode, 200);
      assert.deepEqual([replay.json().id, replay.json().duplicate], [first.json().id, true]);
      const rows = await harness.database.owner<{ n: number }>('SELECT count(*)::int AS n FROM inbound_webhook_receipts WHERE id = $1', [first.json().id]);
      assert.equal(rows[0]?.n, 1);
      assert.equal((await receipts()).filter((r: { id: string }) => r.id === first.json().id).length, 1);
    });

    test('after a rotation both secrets are accepted; once removed, unsigned webhooks are accepted again; each change is audited', async () => {
      const rotated = await harness.app.inject({ method: 'POST', url: '/api/v1/inbound-webhooks/secret', headers: admin.headers });
      assert.equal(rotated.statusCode, 200);
      const next = rotated.json().secret;
      const body = JSON.stringify(payload);
      assert.equal((await receive('visitor_checked_in', body, signed(secret, body, 'msg_old'))).statusCode, 200);
      assert.equal((await receive('visitor_checked_in', body, signed(next, body, 'msg_new'))).statusCode, 200);
      const state = await harness.app.inject({ url: '/api/v1/inbound-webhooks/secret', headers: admin.headers });
      assert.equal(state.statusCode, 200);
      assert.equal(state.json().secret, undefined);
      assert.ok(state.json().previous_secret_expires_at);

      assert.equal((await harness.app.inject({ method: 'DELETE', url: '/api/v1/inbound-webhooks/secret', headers: admin.headers })).statusCode, 200);
      assert.equal((await receive('visitor_checked_in', body)).statusCode, 200);
      assert.equal((await harness.app.inject({ url: '/api/v1/inbound-webhooks/secret', headers: admin.headers })).statusCode, 404);
      const actions = await harness.database.owner<{ action: string }>(
        "SELECT action FROM audit_events WHERE organization_id = $1 AND action LIKE 'inbound_webhook_secret.%' ORDER BY seq",
        [tenant.organizationId],
      );
      assert.deepEqual(
        actions.map((a) => a.action),
        ['inbound_webhook_secret.created', 'inbound_webhook_secret.rotated', 'inbound_webhook_secret.deleted'],
      );
      const stored = JSON.stringify(await harness.database.owner('SELECT * FROM inbound_webhook_secrets'));
      assert.ok(!stored.includes(next.slice(6)));
    });
  });

  test("another organization's receipts are not listed", async () => {
    const other = await createTenant(harness.database.owner, { tier: 'enterprise' });
    const listed = (await harness.app.inject({ url: '/api/v1/inbound-webhooks', headers: other.headers })).json();
    assert.deepEqual(listed.data, []);
  });
});
