/**
 * A body of thousands of invalid values is refused quickly, lists a bounded number of them, and
 * never holds up other requests: the bodies outside testers sent (an ownership check of 16,000
 * entities of an unknown type, a webhook endpoint with 4,000 integer events, a workforce sync of
 * 8,000 profiles with object metadata), each while /api/healthz is asked every few milliseconds.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { MAX_FIELD_ERRORS } from '../../src/http/errors.ts';
import { createTenant, type TestTenant } from '../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let harness: TestApp;
let org: TestTenant;

before(async () => {
  harness = await buildTestApp();
  org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
});
after(() => harness.close());

/** Generous against a slow CI machine; the refusals measured were 6 to 32 seconds. */
const ANSWER_WITHIN_MS = 3_000;
const HEALTH_GAP_WITHIN_MS = 1_000;

/** Sends the body while health checks run back to back; answers the refusal, its time, and the longest a health check waited. */
async function underWatch(method: 'POST' | 'PUT', url: string, payload: object) {
  let sending = true;
  let longestHealthMs = 0;
  const watch = (async () => {
    while (sending) {
      const started = performance.now();
      const health = await harness.app.inject({ method: 'GET', url: '/api/healthz' });
      assert.equal(health.statusCode, 200);
      longestHealthMs = Math.max(longestHealthMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  const started = performance.now();
  const response = await harness.app.inject({ method, url: `/api/v1${url}`, headers: org.headers, payload });
  const answeredMs = performance.now() - started;
  sending = false;
  await watch;
  return { response, answeredMs, longestHealthMs };
}

function assertBoundedRefusal(result: Awaited<ReturnType<typeof underWatch>>, pointer: RegExp) {
  const { response, answeredMs, longestHealthMs } = result;
  assert.equal(response.statusCode, 400, response.body.slice(0, 500));
  const problem = response.json();
  assert.equal(problem.code, 'validation_failed');
  assert.equal(problem.errors.length, MAX_FIELD_ERRORS, 'the first hundred are listed');
  assert.equal(problem.errors_truncated, true, 'and it says there are more');
  assert.match(problem.errors[0].pointer, pointer);
  assert.match(
    problem.detail,
    /^The request has more than 100 invalid values: .* and 90 more listed in `errors`\. The first 100 are listed; checking stopped there\.$/,
  );
  assert.ok(response.body.length < 50_000, `a bounded answer (${response.body.length} bytes)`);
  assert.ok(answeredMs < ANSWER_WITHIN_MS, `answered in ${Math.round(answeredMs)} ms`);
  assert.ok(longestHealthMs < HEALTH_GAP_WITHIN_MS, `/api/healthz waited up to ${Math.round(longestHealthMs)} ms`);
}

describe('validation that cannot be turned against the service', () => {
  test('an ownership check of 16,000 entities of an unknown type', async () => {
    const entities = Array.from({ length: 16_000 }, (_, i) => ({ id: `e${i}`, name: `Entity ${i}`, type: 'trust' }));
    assertBoundedRefusal(await underWatch('POST', '/ownership/check', { target: 'e0', entities, ownerships: [] }), /^\/entities\/\d+\/type$/);
  });

  test('a webhook endpoint with 4,000 integer events is refused for its length alone, its items unread', async () => {
    const events = Array.from({ length: 4_000 }, (_, i) => i);
    const { response, answeredMs, longestHealthMs } = await underWatch('POST', '/webhook-endpoints', { url: 'https://hooks.example.com/x', events });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(
      response.json().errors.map((e: { pointer: string; detail: string }) => [e.pointer, e.detail.replace(/\d+/, 'N')]),
      [['/events', 'must NOT have more than N items']],
    );
    assert.ok(
      answeredMs < ANSWER_WITHIN_MS && longestHealthMs < HEALTH_GAP_WITHIN_MS,
      `${Math.round(answeredMs)} ms, health ${Math.round(longestHealthMs)} ms`,
    );
  });

  test('100,000 entities, the last one invalid, are read through in slices while /api/healthz answers', async () => {
    const entities = Array.from({ length: 100_000 }, (_, i) => ({ id: `e${i}`, type: i === 99_999 ? 'trust' : 'entity' }));
    const { response, longestHealthMs } = await underWatch('POST', '/ownership/check', { target: 'e0', entities, ownerships: [] });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(
      response.json().errors.map((e: { pointer: string }) => e.pointer),
      ['/entities/99999/type'],
    );
    assert.ok(longestHealthMs < HEALTH_GAP_WITHIN_MS, `/api/healthz waited up to ${Math.round(longestHealthMs)} ms`);
  });

  test('repeated items of an array that must not repeat are named, each with the item it repeats', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      headers: org.headers,
      payload: { url: 'https://hooks.example.com/x', events: ['screening.completed', 'case.opened', 'screening.completed'] },
    });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json().errors, [{ pointer: '/events/2', detail: 'repeats item 0; each may be given once', in: 'body' }]);
  });

  test('a workforce sync of 8,000 profiles with object metadata', async () => {
    const profiles = Array.from({ length: 8_000 }, (_, i) => ({ external_id: `w${i}`, name: `Worker ${i}`, metadata: { team: { nested: true } } }));
    assertBoundedRefusal(await underWatch('PUT', '/workforce/sync', { mode: 'full', profiles }), /^\/profiles\/\d+\/metadata\/team$/);
  });

  test('a body with a few invalid values still lists each of them, and no count of omitted ones', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/webhook-endpoints',
      headers: org.headers,
      payload: { url: 'https://hooks.example.com/x', events: [1, 'no.such_event'] },
    });
    assert.equal(response.statusCode, 400);
    const problem = response.json();
    assert.deepEqual(
      problem.errors.map((e: { pointer: string }) => e.pointer),
      ['/events/0', '/events/1'],
    );
    assert.equal(problem.errors_truncated, undefined);
    assert.match(problem.errors[1].detail, /must be one of: "/);
  });
});
