import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTenant, type TestTenant } from '../helpers/credentials.ts';
import { probeFeature } from '../helpers/probe-feature.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

describe('health, readiness and metrics', () => {
  let harness: TestApp;
  let tenant: TestTenant;
  before(async () => {
    const { APP_FEATURES } = await import('../../src/composition.ts');
    harness = await buildTestApp({ features: [...APP_FEATURES, probeFeature] });
    tenant = await createTenant(harness.database.owner);
  });
  after(() => harness.close());

  test('healthz answers while the process is up', async () => {
    const response = await harness.app.inject({ url: '/api/healthz' });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { status: 'ok' });
  });

  test('readyz checks the database, the migrations and the lists (none is loaded here: test/features/lists/lists.test.ts loads one)', async () => {
    const response = await harness.app.inject({ url: '/api/readyz' });
    assert.equal(response.statusCode, 503);
    const { status, checks } = response.json();
    assert.deepEqual([status, checks.database, checks.migrations, checks.lists.ok], ['not_ready', { ok: true }, { ok: true }, false]);
  });

  test('metrics count requests by route pattern and status, never by raw URL', async () => {
    await harness.app.inject({ url: '/api/v1/probes/scr_12345', headers: tenant.headers });
    await harness.app.inject({ url: '/api/v1/no/such/thing', headers: tenant.headers });
    const text = (await harness.app.inject({ url: '/api/metrics' })).body;
    assert.match(text, /gatehouse_http_requests_total\{method="GET",route="\/api\/v1\/probes\/:id",status="500"\} 1/);
    assert.match(text, /gatehouse_http_requests_total\{method="GET",route="unmatched",status="404"\} 1/);
    assert.match(text, /gatehouse_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/api\/healthz",status="200"\}/);
    assert.doesNotMatch(text, /scr_12345/);
  });

  test('readyz answers 503 naming the failed check when the database is gone', async () => {
    await harness.database.db.close();
    const response = await harness.app.inject({ url: '/api/readyz' });
    assert.equal(response.statusCode, 503);
    const body = response.json();
    assert.equal(body.status, 'not_ready');
    assert.equal(body.checks.database.ok, false);
  });
});
