import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifyChain } from '../../../src/audit/audit-verifier.ts';
import { createKey, createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';

let harness: TestApp;
let admin: TestTenant;
let other: TestTenant;
before(async () => {
  harness = await buildTestApp();
  admin = await createTenant(harness.database.owner, { admin: true, tier: 'defense' });
  other = await createTenant(harness.database.owner, { admin: true });
});
after(() => harness.close());

const call = (as: { headers: { authorization: string } }, method: 'GET' | 'POST', url: string, payload?: object, extra: Record<string, string> = {}) =>
  harness.app.inject({ method, url: `/api/v1${url}`, headers: { ...as.headers, ...extra }, ...(payload && { payload }) });

describe('API key management', () => {
  test('an admin creates a key that is shown once, works at once, and is stored only hashed', async () => {
    const created = await call(admin, 'POST', '/api-keys', { name: 'lobby kiosk' });
    assert.equal(created.statusCode, 201, created.body);
    const body = created.json();
    assert.match(body.key, /^gk_live_[0-9A-Za-z]{49}$/);
    assert.equal(body.display_prefix, `${body.key.slice(0, 12)}…`);
    assert.equal(created.headers.location, `/api/v1/api-keys/${body.id}`);
    assert.deepEqual([body.object, body.state, body.admin, body.environment], ['api_key', 'active', false, 'live']);

    const fetched = await call(admin, 'GET', `/api-keys/${body.id}`);
    assert.equal(fetched.statusCode, 200);
    assert.equal(fetched.json().key, undefined, 'never shown again');
    assert.equal((await call({ headers: { authorization: `Bearer ${body.key}` } }, 'GET', '/no-such-route')).statusCode, 404, 'the new key authenticates');

    const stored = JSON.stringify(await harness.database.owner('SELECT * FROM api_keys'));
    const audited = JSON.stringify(await harness.database.owner('SELECT * FROM audit_events'));
    assert.ok(!stored.includes(body.key) && !audited.includes(body.key), 'the key itself is nowhere in the database');
  });

  test('a sandbox key can be asked for', async () => {
    const created = await call(admin, 'POST', '/api-keys', { name: 'sandbox', environment: 'test', admin: true });
    assert.match(created.json().key, /^gk_test_/);
    assert.equal(created.json().admin, true);
  });

  test('a sandbox key creates sandbox keys unless the request asks for a live one', async () => {
    const sandbox = await createKey(harness.database.owner, admin.organizationId, { admin: true, environment: 'test' });
    const unsaid = await call(sandbox, 'POST', '/api-keys', { name: 'tried from the sandbox' });
    assert.equal(unsaid.statusCode, 201, unsaid.body);
    assert.deepEqual([unsaid.json().environment, unsaid.json().key.slice(0, 8)], ['test', 'gk_test_']);
    const asked = await call(sandbox, 'POST', '/api-keys', { name: 'going live', environment: 'live' });
    assert.deepEqual([asked.json().environment, asked.json().key.slice(0, 8)], ['live', 'gk_live_']);
  });

  test('a key without admin rights may not manage keys', async () => {
    const standard = await createKey(harness.database.owner, admin.organizationId);
    const refused = await call(standard, 'POST', '/api-keys', { name: 'sneaky' });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.json().code, 'role_required');
    assert.equal((await call(standard, 'GET', '/api-keys')).statusCode, 403);
  });

  test('bad input is refused with pointers', async () => {
    const response = await call(admin, 'POST', '/api-keys', { name: '', environment: 'prod', scopes: ['all'] });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(
      response
        .json()
        .errors.map((e: { pointer: string }) => e.pointer)
        .sort(),
      ['/environment', '/name', '/scopes'],
    );
    assert.equal((await call(admin, 'GET', '/api-keys/not-a-key-id')).statusCode, 400);
  });

  test('disable, enable and revoke take effect at once; revocation is final', async () => {
    const { id, key } = (await call(admin, 'POST', '/api-keys', { name: 'lifecycle' })).json();
    const user = { headers: { authorization: `Bearer ${key}` } };
    const codeOf = async () => (await call(user, 'GET', '/no-such-route')).json().code;

    assert.equal((await call(admin, 'POST', `/api-keys/${id}/disable`)).json().state, 'disabled');
    assert.equal(await codeOf(), 'key_disabled');
    assert.equal((await call(admin, 'POST', `/api-keys/${id}/enable`)).json().state, 'active');
    assert.equal(await codeOf(), 'not_found');
    assert.equal((await call(admin, 'POST', `/api-keys/${id}/revoke`)).json().state, 'revoked');
    assert.equal(await codeOf(), 'key_revoked');
    assert.equal((await call(admin, 'POST', `/api-keys/${id}/revoke`)).statusCode, 200, 'revoking twice is harmless');
    const reenable = await call(admin, 'POST', `/api-keys/${id}/enable`);
    assert.equal(reenable.statusCode, 409);
    assert.equal(reenable.json().current_state, 'revoked');
  });

  test('a POST that needs no body is accepted without one, whatever Content-Type it carries', async () => {
    const key = await createKey(harness.database.owner, admin.organizationId);
    for (const contentType of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
      const response = await harness.app.inject({
        method: 'POST',
        url: `/api/v1/api-keys/${key.keyId}/disable`,
        headers: { ...admin.headers, 'content-type': contentType },
      });
      assert.equal(response.statusCode, 200, `${contentType}: ${response.body}`);
      assert.equal(response.json().state, 'disabled');
      await harness.app.inject({ method: 'POST', url: `/api/v1/api-keys/${key.keyId}/enable`, headers: admin.headers });
    }
  });

  test('lists page by page with next_cursor; the deprecated starting_after still works', async () => {
    for (const name of ['p1', 'p2', 'p3']) await call(other, 'POST', '/api-keys', { name });
    const first = (await call(other, 'GET', '/api-keys?limit=2')).json();
    assert.equal(first.data.length, 2);
    assert.equal(first.has_more, true);
    const rest = (await call(other, 'GET', `/api-keys?limit=2&cursor=${first.next_cursor}`)).json();
    assert.equal(rest.data.length, 2, 'the tenant key plus the third');
    assert.deepEqual([rest.has_more, rest.next_cursor], [false, null]);
    const ids = [...first.data, ...rest.data].map((k: { id: string }) => k.id);
    assert.equal(new Set(ids).size, 4);
    const old = (await call(other, 'GET', `/api-keys?limit=2&starting_after=${first.data[1].id}`)).json();
    assert.deepEqual(
      old.data.map((k: { id: string }) => k.id),
      rest.data.map((k: { id: string }) => k.id),
    );
    assert.equal((await call(other, 'GET', '/api-keys?cursor=bm9wZQ')).statusCode, 400);
  });

  test("another organization's key ids answer 404, for reading and for changing", async () => {
    const mine = (await call(other, 'POST', '/api-keys', { name: 'private' })).json();
    for (const [method, url] of [
      ['GET', `/api-keys/${mine.id}`],
      ['POST', `/api-keys/${mine.id}/revoke`],
    ] as const) {
      const response = await call(admin, method, url);
      assert.equal(response.statusCode, 404, url);
      assert.equal(response.json().code, 'not_found');
    }
    assert.equal((await call(other, 'GET', `/api-keys/${mine.id}`)).json().state, 'active', 'untouched');
    const listed = (await call(admin, 'GET', '/api-keys?limit=100')).json().data.map((k: { id: string }) => k.id);
    assert.ok(!listed.includes(mine.id));
  });

  test('every change is in the audit trail with its request id, and the chain holds', async () => {
    const created = await call(admin, 'POST', '/api-keys', { name: 'audited' }, { 'x-request-id': 'audit-create-1' });
    await call(admin, 'POST', `/api-keys/${created.json().id}/disable`, undefined, { 'x-request-id': 'audit-disable-1' });
    const events = await harness.database.owner<{ action: string; request_id: string; actor_id: string; target_id: string }>(
      `SELECT action, request_id, actor_id, target_id FROM audit_events WHERE request_id LIKE 'audit-%' ORDER BY seq`,
    );
    assert.deepEqual(events, [
      { action: 'api_key.created', request_id: 'audit-create-1', actor_id: admin.keyId, target_id: created.json().id },
      { action: 'api_key.disabled', request_id: 'audit-disable-1', actor_id: admin.keyId, target_id: created.json().id },
    ]);
    assert.equal((await verifyChain(harness.database.db, admin.organizationId)).intact, true);
  });
});

test('a new key is never kept in clear, not even to answer a retry', async () => {
  const harness = await buildTestApp();
  try {
    const admin = await createTenant(harness.database.owner, { admin: true });
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: { ...admin.headers, 'idempotency-key': 'retry-1' },
      payload: { name: 'ci' },
    });
    assert.equal(response.statusCode, 201);
    const key = response.json().key as string;
    const tables = await harness.database.owner<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
    );
    for (const { table_name: table } of tables) {
      const rows = await harness.database.owner<{ row: string }>(`SELECT t::text AS row FROM ${table} t`);
      assert.ok(!rows.some((r) => r.row.includes(key)), `the key is stored in clear in ${table}`);
    }
  } finally {
    await harness.close();
  }
});
