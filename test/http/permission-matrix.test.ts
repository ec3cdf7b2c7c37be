/**
 * The permission matrix, walked: every authenticated API route, called by every kind of caller
 * (three roles of people, two scopes of keys) of an organization of each tier, answers as the
 * matrix (src/http/permissions.ts) says: 403 `tier_required`, 403 `role_required`, or neither;
 * and every console page and form, by a signed-in person of each role and tier, the same.
 * And what the matrix must say, whatever its table: viewers never write, and a Defense
 * organization runs its own door.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadSigningKey } from '../../src/auth/token-keys.ts';
import { createTokenService, type TokenService } from '../../src/auth/tokens.ts';
import { APP_FEATURES } from '../../src/composition.ts';
import type { Tier } from '../../src/db/schema.ts';
import type { Feature } from '../../src/http/feature.ts';
import { allows, PRINCIPALS, type Principal } from '../../src/http/permissions.ts';
import type { RegisteredRoute } from '../../src/http/route-index.ts';
import { type ConsoleClient, signedInUser } from '../helpers/console-client.ts';
import { createKey, createOrganization } from '../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let harness: TestApp;
let tokens: TokenService;
const organizations = new Map<Tier, { id: string; keys: Record<'admin_key' | 'standard_key', string> }>();

before(async () => {
  harness = await buildTestApp();
  tokens = createTokenService(harness.database.db, await loadSigningKey(harness.database.db));
  for (const tier of ['defense', 'enterprise'] as const) {
    const id = await createOrganization(harness.database.owner, { tier });
    const admin = await createKey(harness.database.owner, id, { admin: true });
    const standard = await createKey(harness.database.owner, id);
    organizations.set(tier, { id, keys: { admin_key: admin.key, standard_key: standard.key } });
  }
});
after(() => harness.close());

/** A credential of this kind for this organization; people get a fresh token each time (one route signs it out). */
async function credentialOf(tier: Tier, principal: Principal): Promise<string> {
  const organization = organizations.get(tier) as { id: string; keys: Record<string, string> };
  if (principal === 'admin_key' || principal === 'standard_key') return organization.keys[principal] as string;
  const context = { actor: { organizationId: organization.id, kind: 'system' as const, id: 'test', role: null }, requestId: null, sourceIp: null };
  return (await tokens.issue(context, { subject: `${principal}@example.com`, role: principal })).token;
}

const apiRoutes = () =>
  harness.app.routeIndex.routes.filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'HEAD' && r.access !== 'public') as (RegisteredRoute & {
    access: Exclude<RegisteredRoute['access'], 'public'>;
  })[];

async function call(route: RegisteredRoute, tier: Tier, principal: Principal) {
  const url = route.url.replace(/:[a-z_]+/g, 'x_does_not_exist');
  const hasBody = !['GET', 'DELETE'].includes(route.method);
  const response = await harness.app.inject({
    method: route.method as 'GET',
    url,
    headers: { authorization: `Bearer ${await credentialOf(tier, principal)}`, ...(hasBody && { 'content-type': 'application/json' }) },
    ...(hasBody && { payload: '{}' }),
  });
  // Refusals are problem+json; what an allowed call answers (JSON, NDJSON, a PDF) does not matter here.
  const code = String(response.headers['content-type']).startsWith('application/problem+json') ? (response.json() as { code?: string }).code : undefined;
  return { status: response.statusCode, code };
}

/** What a console page says of a refusal: its title is the refusal's title. */
const CONSOLE_REFUSALS = { tier_required: 'This endpoint needs a higher tier', role_required: 'This needs another role' } as const;

/** A console page or form, as a signed-in person's browser sends it: forms carry the CSRF token of the page read before. */
async function consoleCall(client: ConsoleClient, route: RegisteredRoute) {
  const url = route.url.replace(/:[a-z_]+/g, 'x_does_not_exist');
  const response = route.method === 'POST' ? await client.post(url) : await client.get(url);
  const refusal = Object.entries(CONSOLE_REFUSALS).find(([, title]) => response.body.includes(`<h1>${title}</h1>`))?.[0];
  return { status: response.statusCode, refusal };
}

describe('the permission matrix', () => {
  it('every authenticated API route declares its tier and permission', () => {
    const undeclared = apiRoutes().filter((r) => r.access === undefined);
    assert.deepEqual(
      undeclared.map((r) => `${r.method} ${r.url}`),
      [],
    );
    assert.ok(apiRoutes().length > 40, 'the walk found too few routes to mean anything');
  });

  it('a route that declares no permission stops the app from starting', async () => {
    const undeclared: Feature = {
      name: 'undeclared',
      async register(api) {
        api.get('/undeclared', { config: { tier: 'defense' } }, async () => ({}));
      },
    };
    await assert.rejects(buildTestApp({ features: [...APP_FEATURES, undeclared] }), /must declare config\.tier and config\.permission/);
  });

  it('every route answers every kind of caller of each tier as the matrix says', async () => {
    const mismatches: string[] = [];
    for (const route of apiRoutes()) {
      for (const tier of ['defense', 'enterprise'] as const) {
        for (const principal of PRINCIPALS) {
          const { status, code } = await call(route, tier, principal);
          const access = route.access as NonNullable<typeof route.access>;
          const tierRefused = access.tier === 'enterprise' && tier !== 'enterprise';
          const expected = tierRefused ? 'tier_required' : allows(access, tier, principal) ? 'allowed' : 'role_required';
          const got = status === 403 && (code === 'tier_required' || code === 'role_required') ? code : status === 401 ? `401 ${code}` : 'allowed';
          if (got !== expected) mismatches.push(`${route.method} ${route.url} by ${principal} of ${tier}: expected ${expected}, got ${status} ${code ?? ''}`);
        }
      }
    }
    assert.deepEqual(mismatches, []);
  });

  it('every console page and form answers each role of each tier as the matrix says', async () => {
    // Signing out ends the walk's session, so it goes last.
    const routes = harness.app.routeIndex.routes
      .filter((r) => r.url.startsWith('/console/') && r.method !== 'HEAD' && r.access !== 'public' && r.access !== undefined)
      .sort((a, b) => Number(a.url === '/console/sign-out') - Number(b.url === '/console/sign-out'));
    assert.ok(routes.length >= 10, 'the walk found too few console routes to mean anything');
    const mismatches: string[] = [];
    for (const tier of ['defense', 'enterprise'] as const) {
      for (const role of ['admin', 'adjudicator', 'viewer'] as const) {
        const organization = organizations.get(tier) as { id: string };
        const client = await signedInUser(harness, organization.id, `${role}.${tier}@example.com`, role);
        for (const route of routes) {
          await client.get('/console/queue'); // a page every person may see, for its CSRF token
          const { status, refusal } = await consoleCall(client, route);
          const access = route.access as Exclude<NonNullable<typeof route.access>, 'public'>;
          const expected = access.tier === 'enterprise' && tier !== 'enterprise' ? 'tier_required' : allows(access, tier, role) ? 'allowed' : 'role_required';
          const got =
            status === 403 && refusal ? refusal : status === 303 ? `303 to ${route.url === '/console/sign-out' ? 'sign-in' : 'somewhere'}` : 'allowed';
          if (got !== expected && !(got.startsWith('303') && expected === 'allowed'))
            mismatches.push(`${route.method} ${route.url} by ${role} of ${tier}: expected ${expected}, got ${status} ${refusal ?? ''}`);
        }
      }
    }
    assert.deepEqual(mismatches, []);
  });

  it('a viewer never writes: every route but GET refuses a viewer with role_required, except signing out', async () => {
    for (const route of apiRoutes().filter((r) => r.method !== 'GET' && r.url !== '/api/v1/auth/logout')) {
      const { status, code } = await call(route, 'enterprise', 'viewer');
      assert.deepEqual({ route: `${route.method} ${route.url}`, status, code }, { route: `${route.method} ${route.url}`, status: 403, code: 'role_required' });
    }
  });

  it('a Defense organization runs its door: it sees who is held, decides their case, and checks them in and out', () => {
    const door = [
      'POST /api/v1/checkin',
      'GET /api/v1/sessions',
      'GET /api/v1/sessions/:id',
      'POST /api/v1/sessions/:id/update',
      'GET /api/v1/adjudication/queue',
      'GET /api/v1/adjudication/:id',
      'POST /api/v1/adjudication/:id/disposition',
      'GET /api/v1/screenings/:id/evidence',
    ];
    for (const operation of door) {
      const route = apiRoutes().find((r) => `${r.method} ${r.url}` === operation);
      assert.ok(route?.access, `${operation} is not a route`);
      assert.equal(route.access.tier, 'defense', `${operation} refuses a Defense organization`);
      assert.ok(allows(route.access, 'defense', 'adjudicator'), `${operation} refuses a Defense adjudicator`);
    }
  });
});
