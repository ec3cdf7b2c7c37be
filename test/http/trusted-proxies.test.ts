/**
 * TRUST_PROXY over real HTTP: the address the service takes for the client (the audit trail's
 * source_ip, the failed-authentication limits of the API and the console) is the one a trusted
 * balancer forwards, and the peer's own otherwise, whatever X-Forwarded-For a client writes.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.ts';
import { generateApiKey } from '../../src/auth/api-key-format.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createKey, createTenant, type TestTenant } from '../helpers/credentials.ts';
import { buildSecondApp, buildTestApp, type TestApp } from '../helpers/test-app.ts';

let harness: TestApp;
let tenant: TestTenant;
let revoked: { authorization: string };
const started: App[] = [];
before(async () => {
  harness = await buildTestApp();
  tenant = await createTenant(harness.database.owner, { tier: 'defense' });
  revoked = (await createKey(harness.database.owner, tenant.organizationId, { state: 'revoked' })).headers;
});
after(async () => {
  for (const app of started) await app.close();
  await harness.close();
});

/** Another instance on the same database with `env`, listening on loopback; its base URL. */
async function serve(env: Record<string, string>): Promise<{ app: App; base: string }> {
  const app = await buildSecondApp(harness, env);
  started.push(app);
  return { app, base: await app.listen({ host: '127.0.0.1', port: 0 }) };
}

type Answer = { status: number; body: string; headers: http.IncomingHttpHeaders };

/** A request over HTTP, from `from` (a loopback address of this machine) when given. */
function call(base: string, path: string, options: { headers?: Record<string, string>; from?: string; method?: string; body?: string } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const request = http.request(new URL(path, base), { method: options.method ?? 'GET', headers: options.headers, localAddress: options.from }, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
    });
    request.on('error', reject).end(options.body);
  });
}

let requests = 0;
/** The source_ip the audit trail recorded for a revoked key's refusal sent with these headers. */
async function auditedAddress(send: (headers: Record<string, string>) => Promise<{ statusCode?: number; status?: number }>, forwarded?: string) {
  const requestId = `trusted-proxies-${++requests}`;
  const answer = await send({ ...revoked, 'x-request-id': requestId, ...(forwarded !== undefined && { 'x-forwarded-for': forwarded }) });
  assert.equal(answer.status ?? answer.statusCode, 401);
  const rows = await harness.database.owner<{ source_ip: string }>('SELECT source_ip FROM audit_events WHERE request_id = $1', [requestId]);
  assert.equal(rows.length, 1);
  return rows[0]?.source_ip;
}
const over = (base: string, from?: string) => (headers: Record<string, string>) => call(base, '/api/v1/me', { headers, ...(from && { from }) });

describe('without TRUST_PROXY', () => {
  test('a forged X-Forwarded-For is ignored: the audit trail records the peer', async () => {
    const base = await harness.app.listen({ host: '127.0.0.1', port: 0 });
    assert.equal(await auditedAddress(over(base), '203.0.113.9'), '127.0.0.1');
  });
});

describe('behind a trusted balancer (TRUST_PROXY=127.0.0.1, fd00::/8)', () => {
  let balanced: { app: App; base: string };
  before(async () => {
    balanced = await serve({ TRUST_PROXY: '127.0.0.1, fd00::/8', AUTH_FAILURES_PER_MINUTE: '2' });
  });

  test('the audit trail records the forwarded client, not what the client itself wrote before it', async () => {
    assert.equal(await auditedAddress(over(balanced.base), '203.0.113.9'), '203.0.113.9');
    assert.equal(await auditedAddress(over(balanced.base), '198.51.100.1, 203.0.113.10'), '203.0.113.10');
    assert.equal(await auditedAddress(over(balanced.base)), '127.0.0.1', 'without the header, the balancer itself');
  });

  test('the failed-authentication limit locks out one forwarded client, not another behind the same balancer', async () => {
    const from = (client: string, authorization: string) => call(balanced.base, '/api/v1/me', { headers: { authorization, 'x-forwarded-for': client } });
    const unknown = `Bearer ${generateApiKey('live')}`;
    assert.deepEqual(
      [(await from('192.0.2.1', unknown)).status, (await from('192.0.2.1', unknown)).status, (await from('192.0.2.1', unknown)).status],
      [401, 401, 429],
    );
    assert.equal((await from('192.0.2.1', tenant.headers.authorization)).status, 429, 'even a good key from that client waits');
    assert.equal((await from('192.0.2.2', tenant.headers.authorization)).status, 200, 'the client beside it is served');
    assert.equal((await from('192.0.2.2', unknown)).status, 401, 'and has its own allowance');
  });

  test('a peer that is not listed is the client: its X-Forwarded-For is ignored', async () => {
    assert.equal(await auditedAddress(over(balanced.base, '127.0.0.2'), '203.0.113.9'), '127.0.0.2');
  });

  test('IPv6 peers are matched by range, and IPv4 ones reaching a dual-stack listener as IPv4-mapped', async () => {
    const from = (remoteAddress: string) => (headers: Record<string, string>) => balanced.app.inject({ url: '/api/v1/me', headers, remoteAddress });
    assert.equal(await auditedAddress(from('fd00::17'), '2001:db8::7'), '2001:db8::7');
    assert.equal(await auditedAddress(from('::ffff:127.0.0.1'), '2001:db8::8'), '2001:db8::8');
    assert.equal(await auditedAddress(from('fe80::1'), '2001:db8::9'), 'fe80::1');
  });

  test("the console's failed sign-ins are counted per forwarded client", async () => {
    const signIn = async (client: string) => {
      const page = await call(balanced.base, '/console/sign-in', { headers: { 'x-forwarded-for': client } });
      const cookie = (page.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
      const form = new URLSearchParams({ _csrf: csrf, email: 'nobody@example.com', password: 'not the password at all' }).toString();
      const headers = { cookie, 'x-forwarded-for': client, 'content-type': 'application/x-www-form-urlencoded' };
      return (await call(balanced.base, '/console/sign-in', { method: 'POST', headers, body: form })).status;
    };
    assert.deepEqual([await signIn('198.51.100.20'), await signIn('198.51.100.20'), await signIn('198.51.100.20')], [401, 401, 429]);
    assert.equal(await signIn('198.51.100.21'), 401, 'another client behind the balancer may still try');
  });
});

describe('a chain of proxies (TRUST_PROXY=127.0.0.1, TRUST_PROXY_HOPS=2)', () => {
  let chained: string;
  before(async () => {
    chained = (await serve({ TRUST_PROXY: '127.0.0.1', TRUST_PROXY_HOPS: '2' })).base;
  });

  test('the client is the address two proxies back, whatever it wrote before itself', async () => {
    // The balancer (the peer) appended the CDN edge 192.0.2.10; the edge appended its client.
    assert.equal(await auditedAddress(over(chained), '198.51.100.7, 203.0.113.50, 192.0.2.10'), '203.0.113.50');
  });

  test('the count does not make an unlisted peer a proxy', async () => {
    assert.equal(await auditedAddress(over(chained, '127.0.0.2'), '203.0.113.50, 192.0.2.10'), '127.0.0.2');
  });
});

describe('the settings', () => {
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      assert.ok(error instanceof ConfigError);
      return error.problems;
    }
    assert.fail(`${JSON.stringify(env)} was accepted`);
  };

  test('unset, false or 0 trusts no peer; addresses and ranges of both families are read, with an optional count', () => {
    for (const off of [{}, { TRUST_PROXY: 'false' }, { TRUST_PROXY: '0' }]) assert.equal(loadConfig(off).trustProxy, undefined);
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, fd00::/8,127.0.0.1' }).trustProxy, {
      entries: ['10.0.0.0/8', 'fd00::/8', '127.0.0.1'],
      hops: undefined,
    });
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.1.0.0/16', TRUST_PROXY_HOPS: '2' }).trustProxy, { entries: ['10.1.0.0/16'], hops: 2 });
  });

  test('trusting every peer is refused, saying why', () => {
    for (const value of ['true', '0.0.0.0/0', '::/0']) {
      const [problem, ...more] = refusal({ TRUST_PROXY: value });
      assert.equal(more.length, 0);
      assert.match(String(problem), /^TRUST_PROXY/);
      assert.match(String(problem), /any client could choose/, value);
    }
  });

  test('a hop count alone is refused, pointing to TRUST_PROXY_HOPS; so is a count without addresses', () => {
    assert.match(refusal({ TRUST_PROXY: '1' }).join('\n'), /^TRUST_PROXY=1: a hop count alone .* TRUST_PROXY_HOPS=1/);
    assert.match(refusal({ TRUST_PROXY_HOPS: '1' }).join('\n'), /^TRUST_PROXY_HOPS needs TRUST_PROXY/);
    assert.match(refusal({ TRUST_PROXY: '10.0.0.1', TRUST_PROXY_HOPS: '0' }).join('\n'), /^TRUST_PROXY_HOPS must be an integer from 1 to 10 \(got "0"\)/);
  });

  test('each entry that is not an address or a range is named, all at once', () => {
    const problems = refusal({ TRUST_PROXY: '10.0.0.0/8, balancer.internal, 10.0.0.0/33, fd00::/129, 300.1.1.1' });
    assert.deepEqual(
      problems.map((p) => /"([^"]+)"/.exec(p)?.[1]),
      ['balancer.internal', '10.0.0.0/33', 'fd00::/129', '300.1.1.1'],
    );
    assert.ok(problems.every((p) => p.startsWith('TRUST_PROXY: ')));
    assert.deepEqual(refusal({ TRUST_PROXY: ' , ' }), ['TRUST_PROXY: "," names no address']);
  });
});
