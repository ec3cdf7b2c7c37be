/**
 * The console around the cases: every page behind sign-in, the roles each page needs, the
 * Enterprise pages, the roll-call of visitors, the audit log and its chain, webhooks and their
 * redelivery, API keys shown once, and the headers that keep scripts and frames out.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { tamperWithAuditTrail } from '../../helpers/audit-tampering.ts';
import { type ConsoleClient, pageText, signedInUser } from '../../helpers/console-client.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists } from '../../helpers/test-lists.ts';

let harness: TestApp;
let org: TestTenant;
let admin: ConsoleClient;
let adjudicator: ConsoleClient;

/** The console pages that need no session: signing in, setting a password, the style sheet and script. */
const PUBLIC_PAGES = ['GET /console/assets/:name', 'GET /console/setup', 'GET /console/sign-in', 'POST /console/setup', 'POST /console/sign-in'];

const api = async (method: 'GET' | 'POST', url: string, payload?: object, headers = org.headers) => {
  const response = await harness.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload && { payload }) });
  assert.ok(response.statusCode < 300, response.body);
  return response.json();
};
const samplePath = (url: string) =>
  url
    .replace(':id/:change', `key_${'0'.repeat(26)}/disable`)
    .replace('cases/:id', `cases/case_${'0'.repeat(26)}`)
    .replace('webhooks/:id', `webhooks/we_${'0'.repeat(26)}`)
    .replace(':event_id', `evt_${'0'.repeat(26)}`)
    .replace(':name', 'console.css');

before(async () => {
  harness = await buildTestApp({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1:9' } });
  org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
  await loadTestLists(harness);
  admin = await signedInUser(harness, org.organizationId, 'admin@example.com', 'admin');
  adjudicator = await signedInUser(harness, org.organizationId, 'analyst@example.com', 'adjudicator');
});
after(() => harness.close());

describe('the wall', () => {
  test('every console page but signing in sends a stranger to sign in, and changes nothing', async () => {
    const routes = harness.app.routeIndex.routes.filter((r) => r.url.startsWith('/console') && r.method !== 'HEAD');
    assert.ok(routes.length >= 15);
    const keysBefore = await harness.database.owner('SELECT id, state FROM api_keys ORDER BY id');
    const open: string[] = [];
    for (const route of routes) {
      const response = await harness.app.inject({ method: route.method as 'GET', url: samplePath(route.url), ...(route.method === 'POST' && { payload: {} }) });
      if (response.statusCode !== 303 || !String(response.headers.location).startsWith('/console/sign-in')) open.push(`${route.method} ${route.url}`);
    }
    assert.deepEqual(open.sort(), PUBLIC_PAGES);
    assert.deepEqual(await harness.database.owner('SELECT id, state FROM api_keys ORDER BY id'), keysBefore);
  });

  test("every page allows this server's own style sheet and script only, carries no inline script or style, and cannot be framed", async () => {
    for (const url of [
      '/console/sign-in',
      '/console/queue',
      '/console/visitors',
      '/console/audit',
      '/console/webhooks',
      '/console/api-keys',
      '/console/nowhere',
    ]) {
      const response = await admin.get(url);
      assert.equal(
        response.headers['content-security-policy'],
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        url,
      );
      assert.equal(response.headers['referrer-policy'], 'no-referrer');
      assert.doesNotMatch(response.body, /<script(?![^>]*\bsrc=)|\sstyle=|\son[a-z]+=/i, url);
    }
    assert.equal((await admin.get('/console/nowhere')).statusCode, 404);
  });

  test('the console is not in the API: its form bodies are refused there, and its cookie is no API credential', async () => {
    const form = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/prescreen',
      headers: { ...org.headers, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'subject=x',
    });
    assert.equal(form.statusCode, 415);
    const cookie = [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    assert.equal((await harness.app.inject({ url: '/api/v1/api-keys', headers: { cookie } })).statusCode, 401);
  });
});

describe('roles and tiers', () => {
  test('an adjudicator decides cases but cannot open the keys, webhooks or audit log, nor create a key', async () => {
    for (const url of ['/console/api-keys', '/console/webhooks', '/console/audit']) {
      const response = await adjudicator.get(url);
      assert.equal(response.statusCode, 403, url);
      assert.match(
        pageText(response.body),
        /needs a person with the admin role or an admin API key; this request comes from a person with the adjudicator role/,
      );
    }
    const nav = pageText((await adjudicator.get('/console/queue')).body);
    assert.match(nav, /Queue Visitors on site Watchlists Signed in/, 'only the pages they may open are offered');
    const before = await harness.database.owner('SELECT count(*)::int AS n FROM api_keys');
    await adjudicator.get('/console/queue');
    assert.equal((await adjudicator.post('/console/api-keys', { name: 'sneaky', environment: 'live' })).statusCode, 403);
    assert.deepEqual(await harness.database.owner('SELECT count(*)::int AS n FROM api_keys'), before);
  });

  test('a Defense organization has its door (visitors, queue, cases) and no Enterprise page', async () => {
    const defense = await createTenant(harness.database.owner, { tier: 'defense' });
    const guard = await signedInUser(harness, defense.organizationId, 'guard@example.com', 'admin');
    assert.equal((await guard.get('/console')).headers.location, '/console/visitors');
    assert.equal((await guard.get('/console/visitors')).statusCode, 200);
    const queue = await guard.get('/console/queue');
    assert.equal(queue.statusCode, 200);
    assert.match(pageText(queue.body), /Visitors on site/, 'the navigation offers the door');
    assert.doesNotMatch(pageText(queue.body), /Audit log/, 'the navigation offers no Enterprise page');
    const audit = await guard.get('/console/audit');
    assert.equal(audit.statusCode, 403);
    assert.match(pageText(audit.body), /part of the Enterprise tier/);
  });
});

describe('visitors on site', () => {
  test('the roll-call lists who is inside by site, and who waits at the door on a case', async () => {
    await api('POST', '/checkin', {
      visitor: { name: 'Ana Novak', company: 'Ljubljana Optics', citizenship: 'SI' },
      site: 'Plant 7',
      host: { name: 'R. Alvarez' },
      badge_number: 'V-17',
      escort_required: true,
    });
    await api('POST', '/checkin', { visitor: { name: 'Ben Okafor', citizenship: 'RU' }, site: 'HQ' });
    const waiting = await api('POST', '/checkin', { visitor: { name: 'Karim Yusuf Abu-Ali', company: 'Door Test' }, site: 'HQ' });
    const held = await api('POST', '/checkin', { visitor: { name: 'Reza Ahmadi', citizenship: 'IR' }, site: 'HQ' });
    const page = await adjudicator.get('/console/visitors');
    const text = pageText(page.body);
    assert.match(text, /2 visitors on site/);
    assert.match(text, /Visitor Citizenship Country flags Company Host/);
    assert.match(text, /Plant 7 \(1\) .*Ana Novak SI none Ljubljana Optics R\. Alvarez V-17 required/);
    assert.match(text, /HQ \(1\) .*Ben Okafor RU RU: ITAR_126_1 restricted/, 'a restricted citizenship is shown to the guard, though it holds no one');
    assert.match(text, /Waiting at the door \(2\)/);
    assert.match(text, /Karim Yusuf Abu-Ali \(Door Test\) at HQ: pending review .*Citizenship not given; country flags none/);
    assert.match(
      text,
      /Reza Ahmadi at HQ: pending review .*Citizenship IR; country flags IR: OFAC_COMPREHENSIVE, ITAR_126_1 prohibited ?, EAR_E1 restricted ?; held for the country rule OFAC_COMPREHENSIVE \(IR\) — nationality IR; ITAR_126_1 \(IR\) — nationality IR/,
    );
    assert.ok(page.body.includes(`href="/console/cases/${waiting.case_id}"`));
    assert.ok(page.body.includes(`href="/console/cases/${held.case_id}"`));
    const plant = pageText((await adjudicator.get('/console/visitors?site=Plant+7')).body);
    assert.match(plant, /1 visitor on site/);
    assert.doesNotMatch(plant, /Ben Okafor/);
  });
});

describe('the audit log', () => {
  test('shows the newest events, filters them, and says the chain holds, or where it breaks', async () => {
    const page = await admin.get('/console/audit');
    assert.equal(page.statusCode, 200);
    assert.match(pageText(page.body), /intact The hash chain holds: all \d+ events were re-checked/);
    const filtered = pageText((await admin.get('/console/audit?action=console_user.password_set')).body);
    assert.match(filtered, /console_user\.password_set/);
    assert.doesNotMatch(filtered, /checkin|visitor_session\.created/);

    await tamperWithAuditTrail(
      harness.database.owner,
      `UPDATE audit_events SET details = '{"forged":true}' WHERE organization_id = '${org.organizationId}' AND seq = 2`,
    );
    const broken = await admin.get('/console/audit');
    assert.match(pageText(broken.body), /broken The hash chain is broken at event 2: its content does not match its hash/);
    assert.match(broken.body, /role="alert"/);
  });
});

describe('webhooks', () => {
  test('lists endpoints with their recent deliveries; an admin sends one again', async () => {
    const endpoint = await api('POST', '/webhook-endpoints', { url: 'http://127.0.0.1:9/hook', events: ['visitor.checked_in'], description: 'badge system' });
    await api('POST', '/checkin', { visitor: { name: 'Chidi Eze' }, site: 'Dock' });
    const page = await admin.get('/console/webhooks');
    const text = pageText(page.body);
    assert.match(text, /http:\/\/127\.0\.0\.1:9\/hook enabled .*badge system .*visitor\.checked_in .*pending 0/);
    const action = /action="(\/console\/webhooks\/we_\w+\/deliveries\/(evt_\w+)\/redeliver)"/.exec(page.body);
    assert.ok(action?.[1]);
    const sent = await admin.post(action[1]);
    assert.equal(sent.statusCode, 303);
    assert.match(pageText((await admin.get(sent.headers.location as string)).body), /The event is queued for delivery again\./);
    const audited = await harness.database.owner(
      "SELECT actor_id, details->>'event_id' AS event FROM audit_events WHERE action = 'webhook_endpoint.redelivery_requested' AND target_id = $1",
      [endpoint.id],
    );
    assert.deepEqual(audited, [{ actor_id: 'admin@example.com', event: action[2] }]);
  });
});

describe('API keys', () => {
  test('an admin creates a key shown once, which works, then disables and revokes it', async () => {
    await admin.get('/console/api-keys');
    const created = await admin.post('/console/api-keys', { name: 'badge kiosk lobby', environment: 'live' });
    assert.equal(created.statusCode, 201);
    const key = /id="new-key" class="secret" readonly size="60" value="(gk_live_\w+)"/.exec(created.body)?.[1];
    assert.ok(key, 'the key is on the page');
    assert.match(pageText(created.body), /Copy it now: it is shown this once\./);
    assert.equal((await harness.app.inject({ url: '/api/v1/lists', headers: { authorization: `Bearer ${key}` } })).statusCode, 200, 'the key works');

    const list = await admin.get('/console/api-keys');
    assert.ok(!list.body.includes(key), 'never shown again');
    const keyId = /<td>badge kiosk lobby<\/td>[^]*?action="\/console\/api-keys\/(key_\w+)\/disable"/.exec(list.body)?.[1];
    assert.ok(keyId);
    assert.equal((await admin.post(`/console/api-keys/${keyId}/disable`)).headers.location, '/console/api-keys?done=disable');
    assert.equal((await harness.app.inject({ url: '/api/v1/lists', headers: { authorization: `Bearer ${key}` } })).statusCode, 401);
    await admin.get('/console/api-keys');
    await admin.post(`/console/api-keys/${keyId}/revoke`);
    const [row] = await harness.database.owner<{ state: string }>('SELECT state FROM api_keys WHERE id = $1', [keyId]);
    assert.equal(row?.state, 'revoked');
    const actions = await harness.database.owner<{ action: string; actor_id: string }>(
      'SELECT action, actor_id FROM audit_events WHERE target_id = $1 ORDER BY seq',
      [keyId],
    );
    assert.deepEqual(
      actions.map((a) => `${a.action} by ${a.actor_id}`),
      ['api_key.created by admin@example.com', 'api_key.disabled by admin@example.com', 'api_key.revoked by admin@example.com'],
    );
  });
});
