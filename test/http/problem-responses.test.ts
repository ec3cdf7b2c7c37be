/**
 * Every error path answers RFC 9457 problem+json with the right status and code, the request id,
 * and nothing internal.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { createTenant, type TestTenant } from '../helpers/credentials.ts';
import { probeFeature, SECRET_IN_FAULT } from '../helpers/probe-feature.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let harness: TestApp;
let tenant: TestTenant;
before(async () => {
  harness = await buildTestApp({ features: [probeFeature], env: { BODY_LIMIT_BYTES: '2048' } });
  tenant = await createTenant(harness.database.owner);
});

/** A request as an authenticated caller. */
const call = (options: InjectOptions) => harness.app.inject({ ...options, headers: { ...tenant.headers, ...(options.headers as object) } });
after(() => harness.close());

function assertProblem(response: LightMyRequestResponse, status: number, code: string) {
  assert.equal(response.statusCode, status, response.body);
  assert.match(String(response.headers['content-type']), /^application\/problem\+json/);
  const body = response.json();
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  assert.equal(body.type, `https://gatehouse.dev/problems/${code}`);
  assert.equal(typeof body.title, 'string');
  assert.equal(typeof body.detail, 'string');
  assert.equal(body.request_id, response.headers['x-request-id']);
  return body;
}

const post = (payload: string | object, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  call({ method: 'POST', url: '/api/v1/probes', payload, headers });

describe('routing', () => {
  test('an unknown path answers 404 not_found', async () => {
    assertProblem(await call({ url: '/api/v1/nothing-here' }), 404, 'not_found');
  });

  test('a known path with the wrong method answers 405 with Allow', async () => {
    const response = await call({ method: 'DELETE', url: '/api/v1/probes' });
    assertProblem(response, 405, 'method_not_allowed');
    assert.equal(response.headers.allow, 'POST');
    const withParam = await call({ method: 'PUT', url: '/api/v1/probes/abc' });
    assertProblem(withParam, 405, 'method_not_allowed');
    assert.equal(withParam.headers.allow, 'GET, HEAD');
  });
});

describe('request bodies', () => {
  test('a valid body is accepted', async () => {
    const response = await post({ name: 'ok', count: 2, nested: { flag: true } });
    assert.equal(response.statusCode, 201);
    assert.deepEqual(response.json(), { name: 'ok', limit: 10 });
  });

  test('malformed JSON answers 400 malformed_json', async () => {
    assertProblem(await post('{"name": "x",'), 400, 'malformed_json');
  });

  test('an empty body is no body, whatever its type: a route that needs one says so; a blank one is malformed', async () => {
    const missing = assertProblem(await post(''), 400, 'validation_failed');
    assert.deepEqual(
      missing.errors.map((e: { pointer: string }) => e.pointer),
      [''],
    );
    assertProblem(await post('', { 'content-type': 'text/plain' }), 400, 'validation_failed');
    assertProblem(await post('  '), 400, 'malformed_json');
  });

  test('a body that is not JSON answers 415 unsupported_media_type', async () => {
    assertProblem(await post('name=x', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'unsupported_media_type');
    assertProblem(await post('name', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
  });

  test('a body over the limit answers 413 payload_too_large, naming the limit', async () => {
    const body = assertProblem(await post({ name: 'x'.repeat(4000) }), 413, 'payload_too_large');
    assert.match(body.detail, /2048 bytes/);
  });

  test('a route with a larger limit of its own reads bodies up to it, and names its own limit past it', async () => {
    const large = (text: string) => call({ method: 'POST', url: '/api/v1/probes/large', payload: { text } });
    assert.equal((await large('x'.repeat(4000))).statusCode, 200);
    const body = assertProblem(await large('x'.repeat(10_000)), 413, 'payload_too_large');
    assert.match(body.detail, /8192 bytes/);
  });

  test('unknown fields are refused with a pointer to each, at any depth', async () => {
    const body = assertProblem(await post({ name: 'x', subjcet: 'typo', nested: { flag: true, extra: 1 } }), 400, 'validation_failed');
    assert.deepEqual(body.errors.map((e: { pointer: string }) => e.pointer).sort(), ['/nested/extra', '/subjcet']);
    assert.ok(body.errors.every((e: { detail: string; in: string }) => e.detail === 'is not a known field' && e.in === 'body'));
  });

  test('every invalid value is reported at once, and body values are not coerced', async () => {
    const body = assertProblem(await post({ count: '5', colour: 'blue', nested: { flag: 'yes' } }), 400, 'validation_failed');
    const byPointer = Object.fromEntries(body.errors.map((e: { pointer: string; detail: string }) => [e.pointer, e.detail]));
    assert.equal(byPointer['/name'], 'is required');
    assert.equal(byPointer['/count'], 'must be integer');
    assert.equal(byPointer['/colour'], 'must be one of: "red", "green"');
    assert.equal(body.errors.filter((e: { pointer: string }) => e.pointer === '/colour').length, 1, 'one line per field');
    assert.equal(byPointer['/nested/flag'], 'must be boolean');
  });

  test('a string past its length limit is named', async () => {
    const body = assertProblem(await post({ name: 'x'.repeat(21) }), 400, 'validation_failed');
    assert.deepEqual(body.errors, [{ pointer: '/name', detail: 'must NOT have more than 20 characters', in: 'body' }]);
  });

  test('a body that is not an object is refused', async () => {
    const body = assertProblem(await post('[1,2]'), 400, 'validation_failed');
    assert.equal(body.errors[0].pointer, '');
  });
});

describe('query strings', () => {
  test('query values are coerced from text and checked, with in: query', async () => {
    const ok = await call({ method: 'POST', url: '/api/v1/probes?limit=5', payload: { name: 'x' } });
    assert.equal(ok.json().limit, 5);
    const bad = await call({ method: 'POST', url: '/api/v1/probes?limit=500&sort=x', payload: { name: 'x' } });
    const body = assertProblem(bad, 400, 'validation_failed');
    assert.deepEqual(body.errors.map((e: { pointer: string; in: string }) => `${e.in}:${e.pointer}`).sort(), ['query:/limit', 'query:/sort']);
  });
});

describe('faults', () => {
  test('an unexpected error answers 500 internal_error and reveals nothing', async () => {
    const response = await call({ url: '/api/v1/probes/abc' });
    const body = assertProblem(response, 500, 'internal_error');
    assert.doesNotMatch(response.body, /hunter2|srv\/gatehouse|database exploded|at .*\.ts/);
    assert.ok(!('stack' in body));
    assert.ok(!response.body.includes(SECRET_IN_FAULT));
  });
});

describe('request ids', () => {
  test('a safe X-Request-ID is echoed on the response and in the problem', async () => {
    const response = await call({ url: '/api/v1/nothing', headers: { 'x-request-id': 'client-42:retry.1' } });
    assert.equal(response.headers['x-request-id'], 'client-42:retry.1');
    assert.equal(response.json().request_id, 'client-42:retry.1');
  });

  test('an unsafe or oversized X-Request-ID is replaced, not reflected', async () => {
    for (const given of ['bad id<script>', 'x'.repeat(129), 'line\\nbreak']) {
      const response = await call({ url: '/api/v1/nothing', headers: { 'x-request-id': given } });
      assert.notEqual(response.headers['x-request-id'], given);
      assert.match(String(response.headers['x-request-id']), /^req_[0-9a-z]{26}$/);
      assert.ok(!response.body.includes(given));
    }
  });

  test('without one, each request gets its own id, also on success', async () => {
    const [a, b] = await Promise.all([harness.app.inject({ url: '/api/healthz' }), harness.app.inject({ url: '/api/healthz' })]);
    assert.match(String(a.headers['x-request-id']), /^req_/);
    assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
  });
});
