import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createTenant, type TestTenant } from '../helpers/credentials.ts';
import { probeFeature } from '../helpers/probe-feature.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let harness: TestApp;
let orgA: TestTenant;
let orgB: TestTenant;
before(async () => {
  harness = await buildTestApp({ features: [probeFeature] });
  orgA = await createTenant(harness.database.owner);
  orgB = await createTenant(harness.database.owner);
});
after(() => harness.close());

const write = (organization: TestTenant, body: object, key?: string) =>
  harness.app.inject({
    method: 'POST',
    url: '/api/v1/counted',
    payload: body,
    headers: { ...organization.headers, ...(key && { 'idempotency-key': key }) },
  });

describe('Idempotency-Key', () => {
  test('a retry with the same key and body returns the first answer without running again', async () => {
    const key = randomUUID();
    const first = await write(orgA, { amount: 5 }, key);
    const retry = await write(orgA, { amount: 5 }, key);
    assert.equal(first.statusCode, 201);
    assert.equal(retry.statusCode, 201);
    assert.equal(retry.body, first.body);
    assert.equal(retry.headers.location, first.headers.location);
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.equal(first.headers['idempotent-replayed'], undefined);
    const next = await write(orgA, { amount: 5 }, randomUUID());
    assert.equal(next.json().runs, first.json().runs + 1, 'the handler ran once for the two keyed calls');
  });

  test('key order in the body does not make it a different request', async () => {
    const key = randomUUID();
    const first = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/counted',
      payload: '{"amount":1,"pause_ms":0}',
      headers: { 'content-type': 'application/json', ...orgA.headers, 'idempotency-key': key },
    });
    const retry = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/counted',
      payload: '{"pause_ms":0,"amount":1}',
      headers: { 'content-type': 'application/json', ...orgA.headers, 'idempotency-key': key },
    });
    assert.equal(retry.headers['idempotent-replayed'], 'true');
    assert.equal(retry.body, first.body);
  });

  test('the same key with a different body answers 409 idempotency_key_reused', async () => {
    const key = randomUUID();
    await write(orgA, { amount: 1 }, key);
    const reused = await write(orgA, { amount: 2 }, key);
    assert.equal(reused.statusCode, 409);
    assert.equal(reused.json().code, 'idempotency_key_reused');
  });

  test('a retry while the first is still running answers 409 with Retry-After', async () => {
    const key = randomUUID();
    const slow = write(orgA, { amount: 1, pause_ms: 600 }, key);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const early = await write(orgA, { amount: 1, pause_ms: 600 }, key);
    assert.equal(early.statusCode, 409);
    assert.equal(early.json().code, 'idempotency_key_in_progress');
    assert.equal(early.headers['retry-after'], '1');
    assert.equal((await slow).statusCode, 201);
  });

  test('a 5xx is not kept: the retry runs again', async () => {
    const key = randomUUID();
    const failed = await write(orgA, { amount: 1, fail_first: 7 }, key);
    assert.equal(failed.statusCode, 500);
    const retry = await write(orgA, { amount: 1, fail_first: 7 }, key);
    assert.equal(retry.statusCode, 201);
    assert.equal(retry.headers['idempotent-replayed'], undefined);
  });

  test('keys belong to one organization', async () => {
    const key = randomUUID();
    const a = await write(orgA, { amount: 1 }, key);
    const b = await write(orgB, { amount: 1 }, key);
    assert.equal(b.statusCode, 201);
    assert.equal(b.headers['idempotent-replayed'], undefined);
    assert.notEqual(a.body, b.body);
  });

  test('an expired key can be used again', async () => {
    const key = randomUUID();
    const first = await write(orgB, { amount: 3 }, key);
    await harness.database.owner(`UPDATE idempotency_keys SET expires_at = now() - interval '1 second' WHERE key = $1`, [key]);
    const again = await write(orgB, { amount: 3 }, key);
    assert.equal(again.headers['idempotent-replayed'], undefined);
    assert.equal(again.json().runs, first.json().runs + 1);
  });

  test('without the header every call runs', async () => {
    const one = await write(orgB, { amount: 1 });
    const two = await write(orgB, { amount: 1 });
    assert.equal(two.json().runs, one.json().runs + 1);
  });

  test('a malformed key is refused with a pointer to the header', async () => {
    for (const bad of ['x'.repeat(256), 'has space']) {
      const response = await write(orgA, { amount: 1 }, bad);
      assert.equal(response.statusCode, 400);
      assert.deepEqual(
        response.json().errors.map((e: { pointer: string; in: string }) => `${e.in}:${e.pointer}`),
        ['header:/idempotency-key'],
      );
    }
  });

  test('is documented on the routes that honour it, and only those', async () => {
    const doc = (await harness.app.inject({ url: '/api/v1/openapi.json' })).json();
    const params = (path: string, method: string) => (doc.paths[path][method].parameters ?? []).map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    assert.ok(params('/api/v1/counted', 'post').includes('header:idempotency-key'));
    assert.ok(!params('/api/v1/probes', 'post').includes('header:idempotency-key'));
  });
});
