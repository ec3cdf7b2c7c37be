/**
 * GET /me says who is calling: the organization and its tier, the credential, and what the
 * permission matrix lets it do, for keys of both scopes and for people of each role; another
 * organization's caller sees their own.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createKey, createTenant, personHeaders, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';

let harness: TestApp;
let org: TestTenant;
before(async () => {
  harness = await buildTestApp();
  org = await createTenant(harness.database.owner, { tier: 'defense', admin: true });
});
after(() => harness.close());

const me = async (headers: { authorization: string }) => {
  const response = await harness.app.inject({ url: '/api/v1/me', headers });
  assert.equal(response.statusCode, 200, response.body);
  return response.json();
};

describe('GET /me', () => {
  test('an admin key: its organization and tier, its id and environment, every permission but signing out', async () => {
    const caller = await me(org.headers);
    assert.deepEqual(caller.organization, { id: org.organizationId, name: 'Test organization', tier: 'defense' });
    assert.deepEqual(caller.credential, { kind: 'api_key', id: org.keyId, principal: 'admin_key', environment: 'live' });
    assert.deepEqual(caller.permissions, ['read', 'operate', 'decide', 'administer']);
    assert.equal(caller.rate_limit_per_second, null);
  });

  test('a standard sandbox key may not administer', async () => {
    const key = await createKey(harness.database.owner, org.organizationId, { environment: 'test' });
    const caller = await me(key.headers);
    assert.deepEqual([caller.credential.principal, caller.credential.environment], ['standard_key', 'test']);
    assert.deepEqual(caller.permissions, ['read', 'operate', 'decide']);
  });

  test('a viewer reads and signs out; the token says when it expires', async () => {
    const caller = await me(await personHeaders(harness.database.db, org.organizationId, 'viewer', 'vera@example.com'));
    assert.deepEqual([caller.credential.kind, caller.credential.id, caller.credential.role], ['user', 'vera@example.com', 'viewer']);
    assert.deepEqual(caller.permissions, ['read', 'sign_out']);
    assert.ok(Date.parse(caller.credential.expires_at) > Date.now());
  });

  test("another organization's key sees its own organization", async () => {
    const other = await createTenant(harness.database.owner, { tier: 'enterprise' });
    const caller = await me(other.headers);
    assert.deepEqual([caller.organization.id, caller.organization.tier], [other.organizationId, 'enterprise']);
  });

  test('no credential: 401', async () => {
    assert.equal((await harness.app.inject({ url: '/api/v1/me' })).statusCode, 401);
  });
});
