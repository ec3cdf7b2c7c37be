/**
 * A route's schemas are compiled when it is first called, or all at once by a serving process
 * once it listens (src/http/compiled-on-first-use.ts): either way a request meets the same
 * validation, and nothing is compiled twice.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { compiledOnFirstUse, compileRemaining } from '../../src/http/compiled-on-first-use.ts';
import { createTenant, type TestTenant } from '../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

describe('schemas compiled on first use', () => {
  let harness: TestApp;
  let org: TestTenant;
  before(async () => {
    harness = await buildTestApp();
    org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
  });
  after(() => harness.close());

  const prescreen = (payload: object) => harness.app.inject({ method: 'POST', url: '/api/v1/prescreen', headers: org.headers, payload });

  test('a route first called before the rest are compiled validates its body, and is not compiled again', async () => {
    const first = await prescreen({ name: 'Ivan Petrov', kind: 'person', subjcet: 'typo' });
    assert.equal(first.statusCode, 400);
    assert.match(first.body, /subjcet/);
    // The app's other routes are still waiting; this one is among them no more.
    const compiled = await compileRemaining();
    assert.ok(compiled > 20, `compiled ${compiled} schemas: an app has far more routes than that`);
    assert.equal(await compileRemaining(), 0, 'what was compiled once is not compiled again');
    const again = await prescreen({ name: 'Ivan Petrov', kind: 'person', subjcet: 'typo' });
    assert.equal(again.statusCode, 400);
    assert.deepEqual(again.json().errors, first.json().errors);
  });

  test('a route compiled in the background answers as one compiled at its first call', async () => {
    // Every schema was compiled by compileRemaining above; this route was never called before.
    const response = await harness.app.inject({ method: 'GET', url: '/api/v1/events?limit=zero', headers: org.headers });
    assert.equal(response.statusCode, 400);
    assert.match(response.body, /limit/);
  });
});

test('a compiler runs once: at the first call, or when the remaining are compiled, whichever comes first', async () => {
  const runs = { a: 0, b: 0 };
  const a = compiledOnFirstUse(() => ++runs.a);
  const b = compiledOnFirstUse(() => ++runs.b);
  assert.deepEqual(runs, { a: 0, b: 0 });
  assert.equal(a(), 1);
  assert.equal(a(), 1);
  assert.equal(await compileRemaining(), 1);
  assert.deepEqual(runs, { a: 1, b: 1 });
  assert.equal(b(), 1);
  assert.deepEqual(runs, { a: 1, b: 1 });
});
