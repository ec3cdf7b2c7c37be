/**
 * Many processes, one behaviour: two instances of the service on one PostgreSQL, each with its
 * own memory as two processes behind a load balancer would have, give a credential one rate and
 * an address one allowance of failed authentications, the API's and the console's. The embedded
 * database is held by one process, whose limits stay in its memory (test/http/rate-limit.test.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { App } from '../../src/app.ts';
import { generateApiKey } from '../../src/auth/api-key-format.ts';
import { ConsoleClient } from '../helpers/console-client.ts';
import { createTenant, type TestTenant } from '../helpers/credentials.ts';
import { probeFeature } from '../helpers/probe-feature.ts';
import { tapStatements } from '../helpers/statement-tap.ts';
import { buildSecondApp, buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { testBackend } from '../helpers/test-database.ts';

// A rate of 2 a second in bursts of 4, leased a token at a time; 3 failed authentications a minute.
const env = { RATE_LIMIT_DEFENSE_PER_SECOND: '2', RATE_LIMIT_ENTERPRISE_PER_SECOND: '50', AUTH_FAILURES_PER_MINUTE: '3' };

const me = (app: App, headers: Record<string, string>, remoteAddress = '10.0.0.1') => app.inject({ url: '/api/v1/me', headers, remoteAddress });
const unknownKey = () => ({ authorization: `Bearer ${generateApiKey('live')}` });

describe('two processes on one PostgreSQL', { skip: testBackend() === 'pglite' && 'the embedded database is held by one process' }, () => {
  let one: TestApp;
  let other: App;
  before(async () => {
    one = await buildTestApp({ env });
    other = await buildSecondApp(one, env);
  });
  after(async () => {
    await other.close();
    await one.close();
  });

  test("share one credential's bucket", async () => {
    const tenant = await createTenant(one.database.owner, { tier: 'defense' });
    // All at once, so that no token comes back in between, however slow the machine.
    const answers = await Promise.all([one.app, other, one.app, other, one.app, other].map((app) => me(app, tenant.headers)));
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 200, 200, 200, 429, 429], 'one burst of 4 between them');
  });

  test('a client locked out on one is locked out on the other, even with a good key', async () => {
    const tenant = await createTenant(one.database.owner, { tier: 'enterprise' });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await me(one.app, unknownKey(), '10.7.7.7')).json().code);
    assert.deepEqual(codes, ['unauthenticated', 'unauthenticated', 'unauthenticated', 'rate_limited']);
    assert.equal((await me(other, unknownKey(), '10.7.7.7')).json().code, 'rate_limited');
    assert.equal((await me(other, tenant.headers, '10.7.7.7')).json().code, 'rate_limited');
    assert.equal((await me(other, tenant.headers, '10.7.7.8')).statusCode, 200, 'another client is served');
  });

  test('failures spread over both add up to one allowance', async () => {
    const statuses = [];
    for (const app of [one.app, other, one.app, other]) statuses.push((await me(app, unknownKey(), '10.7.7.9')).statusCode);
    assert.deepEqual(statuses, [401, 401, 401, 429]);
  });

  test("a client out of the console's sign-ins on one is out of them on the other", async () => {
    const signIn = async (client: ConsoleClient) => (await client.signIn('nobody@example.com', 'not the password at all')).statusCode;
    const onOne = new ConsoleClient(one);
    assert.deepEqual([await signIn(onOne), await signIn(onOne), await signIn(onOne)], [401, 401, 401]);
    const onOther = new ConsoleClient({ ...one, app: other as TestApp['app'] });
    assert.deepEqual([await signIn(onOther), await signIn(onOther)], [429, 429]);
  });
});

describe('what the limits cost a request', () => {
  let tenant: TestTenant;
  let probing: TestApp;
  before(async () => {
    probing = await buildTestApp({ features: [probeFeature], env });
    tenant = await createTenant(probing.database.owner, { tier: 'enterprise' });
  });
  after(() => probing.close());

  test('a credential takes a lease of a twentieth of its bucket at once: no statement for the requests it serves', async () => {
    const tap = tapStatements();
    try {
      for (let i = 0; i < 10; i++) assert.equal((await probing.app.inject({ url: '/api/v1/probes/slow?ms=0', headers: tenant.headers })).statusCode, 200);
    } finally {
      tap.close();
    }
    const limitStatements = tap.sent.filter((query) => query.text.includes('limit_buckets')).length;
    // Bursts of 100 (enterprise, 50 a second): leases of 5. The embedded database's limits are in memory.
    assert.equal(limitStatements, testBackend() === 'postgres' ? 2 : 0);
  });
});
