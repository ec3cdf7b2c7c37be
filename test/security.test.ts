/**
 * The security suite every route of the service must pass. Routes are taken from the running
 * server, not listed by hand, so a new route is covered the day it is added: it fails here until
 * it refuses every bad credential and, if it takes an id, hides other organizations' records.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { SignJWT } from 'jose';
import { loadSigningKey, type SigningKey } from '../src/auth/token-keys.ts';
import { OWN_AUDIENCE, OWN_ISSUER } from '../src/auth/tokens.ts';
import type { RegisteredRoute } from '../src/http/route-index.ts';
import { newId } from '../src/ids.ts';
import { createKey, createTenant, type TestTenant } from './helpers/credentials.ts';
import { buildTestApp, type TestApp } from './helpers/test-app.ts';

let harness: TestApp;
let signingKey: SigningKey;
let owner: TestTenant; // holds the records other organizations must not reach
let stranger: TestTenant; // an admin of another organization
let routes: RegisteredRoute[];

/** A request to a record of the owner's: its path, and a valid body where the route needs one. */
type OwnedRequest = string | { path: string; payload: object };

/**
 * For each route that takes an id: make a record of `owner`'s and return the request to it
 * (keyed by path, or by `METHOD path` where one method needs its own). A new route with a path
 * parameter fails the suite until it has an entry here.
 */
const OWNED_RECORD_PATHS: Record<string, (app: TestApp, as: TestTenant) => Promise<OwnedRequest>> = {
  '/api/v1/api-keys/:id': async (app, as) => `/api/v1/api-keys/${await newKeyId(app, as)}`,
  '/api/v1/api-keys/:id/disable': async (app, as) => `/api/v1/api-keys/${await newKeyId(app, as)}/disable`,
  '/api/v1/api-keys/:id/enable': async (app, as) => `/api/v1/api-keys/${await newKeyId(app, as)}/enable`,
  '/api/v1/api-keys/:id/revoke': async (app, as) => `/api/v1/api-keys/${await newKeyId(app, as)}/revoke`,
  '/api/v1/screenings/:id': async (app, as) => `/api/v1/screenings/${await newScreeningId(app, as)}`,
  '/api/v1/screenings/:id/evidence': async (app, as) => `/api/v1/screenings/${await newScreeningId(app, as)}/evidence`,
  '/api/v1/ownership/checks/:id': async (app, as) => `/api/v1/ownership/checks/${await newOwnershipCheckId(app, as)}`,
  '/api/v1/ownership/checks/:id/evidence': async (app, as) => `/api/v1/ownership/checks/${await newOwnershipCheckId(app, as)}/evidence`,
  '/api/v1/vendors/:id/ownership': async (app, as) => `/api/v1/vendors/${await newVendorId(app, as)}/ownership`,
  '/api/v1/adjudication/:id': async (app, as) => `/api/v1/adjudication/${await newCaseId(app, as)}`,
  '/api/v1/adjudication/:id/disposition': async (app, as) => ({
    path: `/api/v1/adjudication/${await newCaseId(app, as)}/disposition`,
    payload: { disposition: 'CLEARED', reason: 'security suite' },
  }),
  '/api/v1/adjudication/:id/assign': async (app, as) => ({
    path: `/api/v1/adjudication/${await newCaseId(app, as)}/assign`,
    payload: { assignee: 'x@example.com' },
  }),
  '/api/v1/sessions/:id': async (app, as) => `/api/v1/sessions/${await newSessionId(app, as)}`,
  '/api/v1/sessions/:id/update': async (app, as) => ({ path: `/api/v1/sessions/${await newSessionId(app, as)}/update`, payload: { status: 'checked_out' } }),
  '/api/v1/adjudication/:id/notes': async (app, as) => ({
    path: `/api/v1/adjudication/${await newCaseId(app, as)}/notes`,
    payload: { text: 'security suite' },
  }),
  '/api/v1/workforce/syncs/:id': async (app, as) => {
    const id = newId('wfs');
    await app.database.owner(
      `INSERT INTO workforce_syncs (organization_id, id, mode, status, counts, actor, started_at) VALUES ($1, $2, 'upsert', 'completed', '{}', 'test', now())`,
      [as.organizationId, id],
    );
    return `/api/v1/workforce/syncs/${id}`;
  },
  '/api/v1/monitoring/runs/:id': async (app, as) => {
    const id = newId('mon');
    await app.database.owner(
      `INSERT INTO monitoring_runs (organization_id, id, list, list_version_id, previous_version_id, changed_entries, status, cursor, counts, created_at)
       VALUES ($1, $2, 'OFAC_SDN', $3, $3, 1, 'completed', '{}', '{}', now())`,
      [as.organizationId, id, newId('lv')],
    );
    return `/api/v1/monitoring/runs/${id}`;
  },
  '/api/v1/events/:id': async (app, as) => `/api/v1/events/${await newEventId(app, as)}`,
  '/api/v1/webhook-endpoints/:id': async (app, as) => `/api/v1/webhook-endpoints/${await newEndpointId(app, as)}`,
  '/api/v1/webhook-endpoints/:id/rotate-secret': async (app, as) => `/api/v1/webhook-endpoints/${await newEndpointId(app, as)}/rotate-secret`,
  '/api/v1/webhook-endpoints/:id/test': async (app, as) => `/api/v1/webhook-endpoints/${await newEndpointId(app, as)}/test`,
  '/api/v1/webhook-endpoints/:id/deliveries': async (app, as) => `/api/v1/webhook-endpoints/${await newEndpointId(app, as)}/deliveries`,
  '/api/v1/webhook-endpoints/:id/deliveries/:event_id/redeliver': async (app, as) =>
    `/api/v1/webhook-endpoints/${await newEndpointId(app, as)}/deliveries/${await newEventId(app, as)}/redeliver`,
  '/api/v1/watchlists/:id': async (app, as) => `/api/v1/watchlists/${await newWatchlistId(app, as)}`,
  '/api/v1/watchlists/:id/versions': async (app, as) => `/api/v1/watchlists/${await newWatchlistId(app, as)}/versions`,
  '/api/v1/watchlists/:id/versions/:version': async (app, as) => `/api/v1/watchlists/${await newWatchlistId(app, as)}/versions/1`,
  '/api/v1/watchlists/:id/entries': async (app, as) => `/api/v1/watchlists/${await newWatchlistId(app, as)}/entries`,
  // An import names its mode in the query: without it the answer would be about the query, not the id.
  'PUT /api/v1/watchlists/:id/entries': async (app, as) => ({
    path: `/api/v1/watchlists/${await newWatchlistId(app, as)}/entries?mode=replace&allow_shrink=true`,
    payload: { entries: [WATCHLIST_ENTRY] },
  }),
  '/api/v1/watchlists/:id/entries/export': async (app, as) => `/api/v1/watchlists/${await newWatchlistId(app, as)}/entries/export`,
  '/api/v1/watchlists/:id/entries/:entry_id': async (app, as) => {
    const watchlistId = await newWatchlistId(app, as);
    return `/api/v1/watchlists/${watchlistId}/entries/${await newEntryId(app, as, watchlistId)}`;
  },
};

/** A valid body for the routes that need one, so that the answer is about the id, not the body. */
const OWNED_RECORD_BODIES: Record<string, object> = {
  'PATCH /api/v1/webhook-endpoints/:id': { enabled: false },
  'PATCH /api/v1/watchlists/:id': { name: 'Renamed by a stranger' },
  'POST /api/v1/watchlists/:id/entries': { name: 'Added By A Stranger', reason: 'security suite', severity: 'red' },
  'PATCH /api/v1/watchlists/:id/entries/:entry_id': { reason: 'changed by a stranger' },
};

const WATCHLIST_ENTRY = { name: 'Security Suite Person', reason: 'security suite', severity: 'orange' };

/** A watchlist of `as`'s organization, with one entry, through the API. */
async function newWatchlistId(app: TestApp, as: TestTenant): Promise<string> {
  const created = await app.app.inject({
    method: 'POST',
    url: '/api/v1/watchlists',
    headers: as.headers,
    payload: { slug: `s${newId('x').slice(-12)}`, name: 'Security suite' },
  });
  const id = created.json().id;
  await newEntryId(app, as, id);
  return id;
}

async function newEntryId(app: TestApp, as: TestTenant, watchlistId: string): Promise<string> {
  const added = await app.app.inject({ method: 'POST', url: `/api/v1/watchlists/${watchlistId}/entries`, headers: as.headers, payload: WATCHLIST_ENTRY });
  return added.json().id;
}

/** A webhook endpoint of `as`'s organization, written directly: its URL is not resolved here. */
async function newEndpointId(app: TestApp, as: TestTenant): Promise<string> {
  const id = newId('we');
  await app.database.owner(
    `INSERT INTO webhook_endpoints (organization_id, id, url, events, secret_ciphertext) VALUES ($1, $2, 'https://hooks.example.com/x', '{case.opened}', 'sealed')`,
    [as.organizationId, id],
  );
  return id;
}

/** A visitor on site, of `as`'s organization, written directly. */
async function newSessionId(app: TestApp, as: TestTenant): Promise<string> {
  const id = newId('ses');
  await app.database.owner(
    `INSERT INTO visitor_sessions (organization_id, id, status, on_site, site, visitor, screening_id, prescreen_reused, history, checked_in_at, created_at, updated_at)
     VALUES ($1, $2, 'checked_in', true, 'HQ', '{"name":"Security Suite"}', $3, false, '[]', now(), now(), now())`,
    [as.organizationId, id, await newScreeningId(app, as)],
  );
  return id;
}

/** An open case of `as`'s organization on a stored screening, written directly. */
async function newCaseId(app: TestApp, as: TestTenant): Promise<string> {
  const id = newId('case');
  await app.database.owner(
    `INSERT INTO cases (organization_id, id, screening_id, source, status, priority, priority_rank, priority_reasons, score, lists, sla_due_at, rules_version, created_at, updated_at)
     VALUES ($1, $2, $3, 'prescreen', 'OPEN', 'low', 1, '[]', 0.9, '["OFAC_SDN"]', now(), 0, now(), now())`,
    [as.organizationId, id, await newScreeningId(app, as)],
  );
  return id;
}

async function newEventId(app: TestApp, as: TestTenant): Promise<string> {
  const id = newId('evt');
  await app.database.owner("INSERT INTO event_outbox (organization_id, id, type, data) VALUES ($1, $2, 'case.opened', '{}')", [as.organizationId, id]);
  return id;
}

/** A stored screening of `as`'s organization, written directly: this suite loads no list. */
async function newScreeningId(app: TestApp, as: TestTenant): Promise<string> {
  const id = newId('scr');
  await app.database.owner(
    `INSERT INTO screenings (organization_id, id, source, outcome, score, record, record_sha256, audit_hash, actor, request_id, created_at)
     VALUES ($1, $2, 'prescreen', 'clear', 0, '{}', $3, $3, 'test', 'req_test', now())`,
    [as.organizationId, id, 'a'.repeat(64)],
  );
  return id;
}

async function newOwnershipCheckId(app: TestApp, as: TestTenant): Promise<string> {
  const id = newId('own');
  await app.database.owner(
    `INSERT INTO ownership_checks (organization_id, id, target_id, status, as_of, record, record_sha256, actor, checked_at)
     VALUES ($1, $2, 'T', 'clear', '2026-11-24', '{}', $3, 'test', now())`,
    [as.organizationId, id, 'a'.repeat(64)],
  );
  return id;
}

async function newVendorId(app: TestApp, as: TestTenant): Promise<string> {
  const id = newId('ven');
  await app.database.owner(`INSERT INTO vendors (organization_id, id, name, latest_screening_id) VALUES ($1, $2, 'Example Vendor', $3)`, [
    as.organizationId,
    id,
    newId('scr'),
  ]);
  return id;
}

async function newKeyId(app: TestApp, as: TestTenant): Promise<string> {
  const response = await app.app.inject({ method: 'POST', url: '/api/v1/api-keys', headers: as.headers, payload: { name: 'security suite' } });
  return response.json().id;
}

/** What a refused request must leave as it was: keys, cases and their histories, visitor sessions, webhook endpoints and deliveries, watchlists and their entries. */
const snapshot = async () => ({
  keys: await harness.database.owner('SELECT id, name, state, state_changed_at FROM api_keys ORDER BY id'),
  endpoints: await harness.database.owner('SELECT id, url, enabled, secret_ciphertext, updated_at FROM webhook_endpoints ORDER BY id'),
  deliveries: await harness.database.owner('SELECT endpoint_id, event_id, state, next_attempt_at FROM webhook_deliveries ORDER BY endpoint_id, event_id'),
  cases: await harness.database.owner('SELECT id, status, assignee, pending_decision, updated_at FROM cases ORDER BY id'),
  sessions: await harness.database.owner('SELECT id, status, metadata, updated_at FROM visitor_sessions ORDER BY id'),
  caseEvents: await harness.database.owner('SELECT count(*)::int AS n FROM case_events'),
  watchlists: await harness.database.owner('SELECT id, name, version, deleted_at FROM watchlists ORDER BY id'),
  watchlistEntries: await harness.database.owner('SELECT id, version, removed_at FROM watchlist_entries ORDER BY id'),
});

/** The fixture for one method of a route, else for every method of its path. */
const ownedRecord = (route: RegisteredRoute) => OWNED_RECORD_PATHS[`${route.method} ${route.url}`] ?? OWNED_RECORD_PATHS[route.url];

const placeholderPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, 'key_00000000000000000000000000');

async function jwt(claims: { exp?: number; iat?: number }, key: Parameters<SignJWT['sign']>[0] = signingKey.privateKey) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ org: owner.organizationId, role: 'admin' })
    .setProtectedHeader({ alg: 'EdDSA' })
    .setIssuer(OWN_ISSUER)
    .setAudience(OWN_AUDIENCE)
    .setSubject('suite@example.com')
    .setJti(crypto.randomUUID())
    .setIssuedAt(claims.iat ?? now)
    .setExpirationTime(claims.exp ?? now + 600)
    .sign(key);
}

before(async () => {
  harness = await buildTestApp();
  signingKey = await loadSigningKey(harness.database.db);
  owner = await createTenant(harness.database.owner, { admin: true, tier: 'enterprise' });
  stranger = await createTenant(harness.database.owner, { admin: true, tier: 'enterprise' });
  routes = harness.app.routeIndex.routes.filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'HEAD' && r.url !== '/api/v1/openapi.json');
});
after(() => harness.close());

describe('every authenticated route', () => {
  test('there are routes to check', () => assert.ok(routes.length >= 7));

  test('refuses every bad credential with the precise code', async () => {
    const now = Math.floor(Date.now() / 1000);
    const revoked = await createKey(harness.database.owner, owner.organizationId, { state: 'revoked', admin: true });
    const disabled = await createKey(harness.database.owner, owner.organizationId, { state: 'disabled', admin: true });
    const cases: [string, string | undefined, number, string][] = [
      ['no credential', undefined, 401, 'unauthenticated'],
      ['a malformed credential', 'Bearer gk_live_tooshort', 401, 'unauthenticated'],
      ['a revoked key', revoked.headers.authorization, 401, 'key_revoked'],
      ['a disabled key', disabled.headers.authorization, 401, 'key_disabled'],
      ['an expired JWT', `Bearer ${await jwt({ iat: now - 900, exp: now - 300 })}`, 401, 'token_expired'],
      ['a JWT over the session policy', `Bearer ${await jwt({ iat: now, exp: now + 86_400 })}`, 401, 'unauthenticated'],
      ['a JWT signed by another key', `Bearer ${await jwt({}, generateKeyPairSync('ed25519').privateKey)}`, 401, 'unauthenticated'],
    ];
    for (const route of routes) {
      for (const [name, authorization, status, code] of cases) {
        const response = await harness.app.inject({
          method: route.method as 'GET',
          url: placeholderPath(route.url),
          headers: authorization ? { authorization } : {},
          ...(route.method !== 'GET' && { payload: {} }),
        });
        assert.equal(response.statusCode, status, `${route.method} ${route.url} with ${name}: ${response.body}`);
        assert.equal(response.json().code, code, `${route.method} ${route.url} with ${name}`);
      }
    }
  });

  test('Enterprise routes refuse a Defense-tier organization', async () => {
    const defense = await createTenant(harness.database.owner, { admin: true, tier: 'defense' });
    const doc = (await harness.app.inject({ url: '/api/v1/openapi.json' })).json();
    for (const route of routes) {
      const tier = doc.paths[route.url.replace(/:([A-Za-z_]+)/g, '{$1}')][route.method.toLowerCase()]['x-tier'];
      const response = await harness.app.inject({ method: route.method as 'GET', url: placeholderPath(route.url), headers: defense.headers });
      if (tier === 'enterprise') assert.equal(response.json().code, 'tier_required', `${route.method} ${route.url}`);
      else assert.notEqual(response.json()?.code, 'tier_required', `${route.method} ${route.url}`);
    }
  });

  /** What a route taking an id could change. */
  test("answers 404 for another organization's ids, and changes nothing", async () => {
    const withIds = routes.filter((r) => r.url.includes(':'));
    assert.deepEqual(
      withIds.filter((r) => !ownedRecord(r)).map((r) => `${r.method} ${r.url}`),
      [],
      'routes without a fixture',
    );
    for (const route of withIds) {
      const owned = await (ownedRecord(route) as (app: TestApp, as: TestTenant) => Promise<OwnedRequest>)(harness, owner);
      const { path, payload } = typeof owned === 'string' ? { path: owned, payload: OWNED_RECORD_BODIES[`${route.method} ${route.url}`] } : owned;
      const before = await snapshot();
      const response = await harness.app.inject({ method: route.method as 'GET', url: path, headers: stranger.headers, ...(payload && { payload }) });
      assert.equal(response.statusCode, 404, `${route.method} ${path}: ${response.body}`);
      assert.equal(response.json().code, 'not_found');
      assert.deepEqual(await snapshot(), before, 'nothing changed');
    }
  });
});
