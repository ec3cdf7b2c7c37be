import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Type } from 'typebox';
import { generateApiKey } from '../../src/auth/api-key-format.ts';
import { APP_FEATURES } from '../../src/composition.ts';
import { createKey, createTenant, type TestTenant } from '../helpers/credentials.ts';
import { probeFeature } from '../helpers/probe-feature.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let harness: TestApp;
let enterprise: TestTenant;
let defense: TestTenant;
before(async () => {
  harness = await buildTestApp({ features: [...APP_FEATURES, probeFeature] });
  enterprise = await createTenant(harness.database.owner, { tier: 'enterprise' });
  defense = await createTenant(harness.database.owner, { tier: 'defense' });
});
after(() => harness.close());

const get = (url: string, authorization?: string) => harness.app.inject({ url, headers: authorization === undefined ? {} : { authorization } });

function assertRefused(response: Awaited<ReturnType<typeof get>>, status: number, code: string) {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(response.json().code, code);
  assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
}

describe('credentials', () => {
  test('no credential, or not a Bearer one, answers 401 unauthenticated with WWW-Authenticate', async () => {
    for (const header of [undefined, '', 'Basic dXNlcjpwYXNz', 'Bearer', `bearer  `]) {
      const response = await get('/api/v1/probes/slow?ms=0', header);
      assertRefused(response, 401, 'unauthenticated');
      assert.match(String(response.headers['www-authenticate']), /^Bearer realm="gatehouse"/);
    }
  });

  test('a mistyped key is refused by its checksum, an unknown key by look-up', async () => {
    const typo = `${enterprise.key.slice(0, 20)}${enterprise.key[20] === 'a' ? 'b' : 'a'}${enterprise.key.slice(21)}`;
    const mistyped = await get('/api/v1/probes/slow?ms=0', `Bearer ${typo}`);
    assertRefused(mistyped, 401, 'unauthenticated');
    assert.match(mistyped.json().detail, /checksum/);
    const unknown = await get('/api/v1/probes/slow?ms=0', `Bearer ${generateApiKey('live')}`);
    assertRefused(unknown, 401, 'unauthenticated');
    assert.match(unknown.json().detail, /not known/);
  });

  test('a valid key is admitted, whatever the case of "Bearer"', async () => {
    assert.equal((await get('/api/v1/probes/slow?ms=0', enterprise.headers.authorization)).statusCode, 200);
    assert.equal((await get('/api/v1/probes/slow?ms=0', `bearer ${enterprise.key}`)).statusCode, 200);
  });

  test('a disabled key answers 401 key_disabled, a revoked key 401 key_revoked', async () => {
    const disabled = await createKey(harness.database.owner, enterprise.organizationId, { state: 'disabled' });
    const revoked = await createKey(harness.database.owner, enterprise.organizationId, { state: 'revoked' });
    assertRefused(await get('/api/v1/probes/slow?ms=0', disabled.headers.authorization), 401, 'key_disabled');
    assertRefused(await get('/api/v1/probes/slow?ms=0', revoked.headers.authorization), 401, 'key_revoked');
  });

  test("a suspended organization's keys answer 403 organization_suspended", async () => {
    const suspended = await createTenant(harness.database.owner);
    await harness.database.owner(`UPDATE organizations SET state = 'suspended' WHERE id = $1`, [suspended.organizationId]);
    assertRefused(await get('/api/v1/probes/slow?ms=0', suspended.headers.authorization), 403, 'organization_suspended');
  });

  test('unknown /api/v1 paths need a credential too', async () => {
    assertRefused(await get('/api/v1/no-such-thing'), 401, 'unauthenticated');
    assertRefused(await get('/api/v1/no-such-thing', enterprise.headers.authorization), 404, 'not_found');
  });

  test('the OpenAPI document and the operations endpoints are public', async () => {
    for (const url of ['/api/v1/openapi.json', '/api/healthz', '/api/docs', '/api/metrics']) {
      assert.equal((await get(url)).statusCode, 200, url);
    }
    // Not ready here (no list is loaded), but answered without a credential.
    const readiness = await get('/api/readyz');
    assert.equal(readiness.statusCode, 503);
    assert.equal(readiness.json().status, 'not_ready');
  });

  test('last_used_at is recorded, to the minute, not on every request', async () => {
    const fresh = await createKey(harness.database.owner, enterprise.organizationId);
    const lastUsed = async () =>
      (await harness.database.owner<{ at: Date | null }>('SELECT last_used_at AS at FROM api_keys WHERE id = $1', [fresh.keyId]))[0]?.at;
    assert.equal(await lastUsed(), null);
    await get('/api/v1/probes/slow?ms=0', fresh.headers.authorization);
    const first = await lastUsed();
    assert.ok(first instanceof Date);
    await get('/api/v1/probes/slow?ms=0', fresh.headers.authorization);
    assert.deepEqual(await lastUsed(), first);
  });
});

describe('tiers', () => {
  test('a Defense organization calling an Enterprise endpoint answers 403 tier_required naming the tier', async () => {
    const response = await get('/api/v1/probes/enterprise', defense.headers.authorization);
    assertRefused(response, 403, 'tier_required');
    assert.equal(response.json().required_tier, 'enterprise');
  });

  test('Enterprise endpoints serve Enterprise organizations; Defense endpoints serve both', async () => {
    assert.equal((await get('/api/v1/probes/enterprise', enterprise.headers.authorization)).statusCode, 200);
    assert.equal((await get('/api/v1/probes/slow?ms=0', defense.headers.authorization)).statusCode, 200);
  });

  test('every authenticated endpoint carries x-tier and the bearer scheme in OpenAPI', async () => {
    const doc = (await get('/api/v1/openapi.json')).json();
    assert.equal(doc.components.securitySchemes.bearerAuth.scheme, 'bearer');
    for (const [path, item] of Object.entries<Record<string, { 'x-tier'?: string; security?: unknown }>>(doc.paths)) {
      if (!path.startsWith('/api/v1/') || path === '/api/v1/openapi.json') continue;
      for (const [method, op] of Object.entries(item)) {
        assert.ok(['defense', 'enterprise'].includes(String(op['x-tier'])), `${method} ${path}`);
        assert.deepEqual(op.security, [{ bearerAuth: [] }]);
      }
    }
    assert.equal(doc.paths['/api/v1/probes/enterprise'].get['x-tier'], 'enterprise');
  });

  test('an /api/v1 route that states no tier stops the app from starting', async () => {
    await assert.rejects(
      buildTestApp({
        features: [
          {
            name: 'untiered',
            async register(api) {
              api.get('/untiered', { schema: { summary: 'x', tags: ['x'], response: { 200: Type.Object({}) } } }, async () => ({}));
            },
          },
        ],
      }),
      /GET \/api\/v1\/untiered must declare config\.tier/,
    );
  });
});
