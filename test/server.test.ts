/**
 * The service as operators run it: its own process, real HTTP, signals, and the embedded
 * database's folder lock.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTenant } from './helpers/credentials.ts';
import { probeFeature } from './helpers/probe-feature.ts';
import { processDatabase, runCli, type ServerProcess, startServerProcess } from './helpers/server-process.ts';
import { buildTestApp } from './helpers/test-app.ts';

describe('gatehouse serve', () => {
  let storage: Awaited<ReturnType<typeof processDatabase>>;
  let dataDir: string | undefined;
  let server: ServerProcess;
  let env: Record<string, string>;

  before(async () => {
    storage = await processDatabase();
    ({ env, dataDir } = storage);
    // A list loaded at start (LISTS_DIR), so that the service is ready; the tests connect as the balancer would.
    server = await startServerProcess({ ...env, LISTS_DIR: path.resolve('test/fixtures/ofac'), TRUST_PROXY: '127.0.0.1' });
  });
  after(async () => {
    await server.stop('SIGKILL');
    await storage.cleanup();
  });

  test('answers over HTTP, ready, on a database it migrated itself', async () => {
    const health = await fetch(`${server.baseUrl}/healthz`);
    assert.equal(health.status, 200);
    const ready = await fetch(`${server.baseUrl}/readyz`);
    assert.equal(ready.status, 200, await ready.clone().text());
    assert.equal(((await ready.json()) as { status: string }).status, 'ready');
  });

  test("logs JSON lines with the request id and the client's address, and no credentials, bodies or query strings", async () => {
    const secret = 'gk_live_ThisMustNeverAppearInLogs123';
    const response = await fetch(`${server.baseUrl}/v1/screenings?name=Jane+Roe`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'x-request-id': 'e2e-log-check', 'x-forwarded-for': '203.0.113.77' },
      body: JSON.stringify({ subject: 'Viktor Bout', date_of_birth: '1967-01-13' }),
    });
    assert.equal(response.status, 401, 'a credential that is not a key is refused');
    // Lines are written in pieces, and at least once a second: wait for it, a little longer than that.
    for (const deadline = Date.now() + 3_000; !server.stdout().includes('e2e-log-check') && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const lines = server.stdout().trim().split('\n');
    for (const line of lines) JSON.parse(line); // every line is JSON
    const logged = lines.map((l) => JSON.parse(l)).find((l) => l.request_id === 'e2e-log-check' && l.req);
    assert.equal(logged?.req.remote_address, '203.0.113.77', 'the client behind the trusted balancer (TRUST_PROXY)');
    for (const leaked of [secret, 'Viktor', '1967-01-13', 'Jane']) assert.ok(!server.stdout().includes(leaked), leaked);
  });

  test('a second process on the same embedded database stops at once with a clear message', {
    skip: !!process.env.DATABASE_URL && 'the lock guards the embedded database only',
  }, () => {
    const second = runCli(['migrate'], env);
    assert.equal(second.code, 1);
    assert.match(second.stderr, new RegExp(`in use by process ${server.child.pid}`));
    assert.doesNotMatch(second.stderr, /\n\s+at /, 'no stack trace');
  });

  test('SIGTERM stops it cleanly and releases the database', async () => {
    assert.equal(await server.stop('SIGTERM'), 0);
    if (dataDir) assert.equal(fs.existsSync(path.join(dataDir, 'gatehouse.lock')), false);
    const migrate = runCli(['migrate'], env);
    assert.equal(migrate.code, 0, migrate.stderr);
    const status = JSON.parse(migrate.stdout);
    assert.equal(status.current, status.latest);
    assert.deepEqual(status.applied, []);
  });
});

/** A GET on its own connection (no keep-alive agent), so a closing server cannot leave it hanging. */
function getOnce(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false, headers }, (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

describe('graceful shutdown', () => {
  test('a request in flight when closing begins still gets its answer', async () => {
    const harness = await buildTestApp({ features: [probeFeature] });
    try {
      const tenant = await createTenant(harness.database.owner);
      const address = await harness.app.listen({ host: '127.0.0.1', port: 0 });
      const inFlight = getOnce(`${address}/api/v1/probes/slow?ms=400`, tenant.headers);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const closed = harness.app.close();
      const response = await inFlight;
      assert.equal(response.status, 200);
      assert.deepEqual(JSON.parse(response.body), { waited: 400 });
      await closed;
      await assert.rejects(getOnce(`${address}/api/healthz`), { code: 'ECONNREFUSED' });
    } finally {
      await harness.close();
    }
  });
});

test('a bad setting stops serve before it starts, naming the setting and what is wrong', () => {
  const refused = runCli(['serve'], { PORT: '0', TRUST_PROXY: 'true' });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /Invalid configuration:\n\s+- TRUST_PROXY=true would trust every peer as a proxy, so any client could choose the address/);
});
