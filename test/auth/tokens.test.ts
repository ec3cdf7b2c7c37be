import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { exportJWK, SignJWT, UnsecuredJWT } from 'jose';
import { loadSigningKey, type SigningKey } from '../../src/auth/token-keys.ts';
import { createTokenService, OWN_AUDIENCE, OWN_ISSUER, type TokenService } from '../../src/auth/tokens.ts';
import { createTenant, type TestTenant } from '../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let harness: TestApp;
let tokens: TokenService;
let signingKey: SigningKey;
let tenant: TestTenant;
let jwks: http.Server;
const external = generateKeyPairSync('ec', { namedCurve: 'P-256' });

before(async () => {
  // A real identity provider's JWKS endpoint, on loopback.
  const publicJwk = { ...(await exportJWK(external.publicKey)), kid: 'idp-1', alg: 'ES256', use: 'sig' };
  jwks = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] })));
  await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;

  harness = await buildTestApp({ env: { JWT_JWKS_URL: jwksUrl, JWT_ISSUER: 'https://idp.example', JWT_AUDIENCE: 'gatehouse' } });
  signingKey = await loadSigningKey(harness.database.db);
  tokens = createTokenService(harness.database.db, signingKey);
  tenant = await createTenant(harness.database.owner, { admin: true });
});
after(async () => {
  await harness.close();
  jwks.close();
});

const systemContext = (organizationId: string) => ({
  actor: { organizationId, kind: 'system' as const, id: 'test', role: null },
  requestId: null,
  sourceIp: null,
});
const listKeys = (token: string) => harness.app.inject({ url: '/api/v1/api-keys', headers: { authorization: `Bearer ${token}` } });

/** A token with chosen claims, signed with our key unless told otherwise. */
function forge(
  claims: Record<string, unknown>,
  options: { key?: Parameters<SignJWT['sign']>[0]; alg?: string; iss?: string; aud?: string; iat?: number; exp?: number } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ org: tenant.organizationId, role: 'admin', ...claims })
    .setProtectedHeader({ alg: options.alg ?? 'EdDSA' })
    .setIssuer(options.iss ?? OWN_ISSUER)
    .setAudience(options.aud ?? OWN_AUDIENCE)
    .setSubject('officer@example.com')
    .setJti(crypto.randomUUID())
    .setIssuedAt(options.iat ?? now)
    .setExpirationTime(options.exp ?? now + 600)
    .sign(options.key ?? signingKey.privateKey);
}

describe('JWTs', () => {
  test('an issued token admits its person with their role', async () => {
    const admin = await tokens.issue(systemContext(tenant.organizationId), { subject: 'fso@example.com', role: 'admin' });
    assert.equal((await listKeys(admin.token)).statusCode, 200);
    const viewer = await tokens.issue(systemContext(tenant.organizationId), { subject: 'viewer@example.com', role: 'viewer' });
    const refused = await listKeys(viewer.token);
    assert.equal(refused.statusCode, 403, 'a viewer may not manage keys');
    assert.equal(refused.json().code, 'role_required');
  });

  test('a lifetime beyond the session policy is refused when issuing and when presented', async () => {
    await assert.rejects(tokens.issue(systemContext(tenant.organizationId), { subject: 'a@example.com', role: 'admin', ttlSeconds: 7200 }), /session policy/);
    const now = Math.floor(Date.now() / 1000);
    const long = await forge({}, { iat: now, exp: now + 7200 });
    const response = await listKeys(long);
    assert.equal(response.statusCode, 401);
    assert.match(response.json().detail, /session policy/);
  });

  test('an expired token answers 401 token_expired', async () => {
    const now = Math.floor(Date.now() / 1000);
    const response = await listKeys(await forge({}, { iat: now - 1200, exp: now - 600 }));
    assert.equal(response.statusCode, 401);
    assert.equal(response.json().code, 'token_expired');
  });

  test('a token signed by another key, for another audience or issuer, or unsigned, is refused', async () => {
    const stranger = generateKeyPairSync('ed25519').privateKey;
    const unsigned = new UnsecuredJWT({ org: tenant.organizationId, role: 'admin', jti: 'x' })
      .setIssuer(OWN_ISSUER)
      .setAudience(OWN_AUDIENCE)
      .setSubject('x')
      .setIssuedAt()
      .setExpirationTime('5m')
      .encode();
    for (const token of [
      await forge({}, { key: stranger }),
      await forge({}, { aud: 'someone-else' }),
      await forge({}, { iss: 'evil' }),
      unsigned,
      'not.a.jwt',
    ]) {
      const response = await listKeys(token);
      assert.equal(response.statusCode, 401, token);
      assert.equal(response.json().code, 'unauthenticated');
      assert.match(String(response.headers['www-authenticate']), /^Bearer/);
    }
  });

  test('a token without its required claims, or naming an unknown organization, is refused', async () => {
    assert.equal((await listKeys(await forge({ role: 'superuser' }))).statusCode, 401);
    assert.equal((await listKeys(await forge({ org: 'org_00000000000000000000000000' }))).statusCode, 401);
  });

  test("a suspended organization's tokens answer 403", async () => {
    const suspended = await createTenant(harness.database.owner);
    const { token } = await tokens.issue(systemContext(suspended.organizationId), { subject: 'x@example.com', role: 'admin' });
    await harness.database.owner(`UPDATE organizations SET state = 'suspended' WHERE id = $1`, [suspended.organizationId]);
    assert.equal((await listKeys(token)).json().code, 'organization_suspended');
  });

  test('signing out revokes the token until its expiry, and is audited', async () => {
    const { token, jti } = await tokens.issue(systemContext(tenant.organizationId), { subject: 'leaving@example.com', role: 'admin' });
    const out = await harness.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { authorization: `Bearer ${token}` } });
    assert.equal(out.statusCode, 204);
    const after = await listKeys(token);
    assert.equal(after.statusCode, 401);
    assert.match(after.json().detail, /signed out/);
    const stored = JSON.stringify(await harness.database.owner('SELECT * FROM revoked_tokens'));
    assert.ok(!stored.includes(jti), 'only a hash of the jti is stored');
    const actions = await harness.database.owner<{ action: string }>(`SELECT action FROM audit_events WHERE details->>'jti' = $1 ORDER BY seq`, [jti]);
    assert.deepEqual(
      actions.map((a) => a.action),
      ['token.issued', 'token.revoked'],
    );
  });

  test('an API key cannot be signed out', async () => {
    const response = await harness.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: tenant.headers });
    assert.equal(response.statusCode, 403);
  });

  test("an external identity provider's token is trusted through its JWKS, with algorithms pinned", async () => {
    const now = Math.floor(Date.now() / 1000);
    const idpToken = await forge({}, { key: external.privateKey, alg: 'ES256', iss: 'https://idp.example', aud: 'gatehouse', iat: now, exp: now + 300 });
    assert.equal((await listKeys(idpToken)).statusCode, 200);
    const wrongAudience = await forge({}, { key: external.privateKey, alg: 'ES256', iss: 'https://idp.example', aud: 'other' });
    assert.equal((await listKeys(wrongAudience)).statusCode, 401);
  });

  test('the signing key is created once and kept', async () => {
    assert.equal((await loadSigningKey(harness.database.db)).kid, signingKey.kid);
  });
});
