/**
 * A route that declares it may run long keeps its connection while it works; any other is cut at
 * the service-wide timeout. Real sockets: the timeout lives on the connection, not in inject().
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Type } from 'typebox';
import type { Feature } from '../../src/http/feature.ts';
import { createTenant, type TestTenant } from '../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

const slow = (path: string, longRunningMs?: number) => ({ path, longRunningMs });
const sleeper: Feature = {
  name: 'sleeper',
  async register(api) {
    for (const { path, longRunningMs } of [slow('/sleep/short'), slow('/sleep/long', 10_000)]) {
      api.get(
        path,
        {
          config: { tier: 'defense', permission: 'read', ...(longRunningMs && { longRunningMs }) },
          schema: { tags: ['probe'], summary: 'Sleeps', response: { 200: Type.Object({ slept: Type.Boolean() }) } },
        },
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 1_800));
          return { slept: true };
        },
      );
    }
  },
};

let harness: TestApp;
let tenant: TestTenant;
let base: string;
before(async () => {
  harness = await buildTestApp({ features: [sleeper], env: { REQUEST_TIMEOUT_MS: '1000' } });
  tenant = await createTenant(harness.database.owner, { tier: 'defense' });
  base = await harness.app.listen({ host: '127.0.0.1', port: 0 });
});
after(() => harness.close());

test('a long-running route answers past the request timeout; another is cut at it', async () => {
  const long = await fetch(`${base}/api/v1/sleep/long`, { headers: tenant.headers });
  assert.deepEqual([long.status, await long.json()], [200, { slept: true }]);
  await assert.rejects(fetch(`${base}/api/v1/sleep/short`, { headers: tenant.headers }), /fetch failed/);
});
