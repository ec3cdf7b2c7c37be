import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { giveWay, MAX_WAIT_MS, requestEnded, requestStarted, requestsInFlight } from '../src/background-priority.ts';
import { buildTestApp } from './helpers/test-app.ts';

describe('background work gives way to requests', () => {
  it('with no request in flight, it goes on after one turn of the event loop', async () => {
    const started = performance.now();
    await giveWay();
    assert.ok(performance.now() - started < MAX_WAIT_MS);
  });

  it('waits while a request is in flight and goes on once it is answered', async () => {
    requestStarted();
    let resumed = false;
    const waiting = giveWay().then(() => (resumed = true));
    await new Promise((resolve) => setTimeout(resolve, 2));
    assert.equal(resumed, false, 'went on while a request was being answered');
    requestEnded();
    await waiting;
    assert.equal(resumed, true);
  });

  it('never waits much longer than MAX_WAIT_MS, so it advances under unbroken load', async () => {
    requestStarted();
    try {
      const started = performance.now();
      await giveWay();
      const waited = performance.now() - started;
      assert.ok(waited >= MAX_WAIT_MS - 1 && waited < MAX_WAIT_MS + 200, `waited ${waited} ms`);
    } finally {
      requestEnded();
    }
  });

  it('the app counts each request once, from its arrival to its answer, whatever the answer', async () => {
    const harness = await buildTestApp();
    try {
      const before = requestsInFlight();
      const answers = await Promise.all([
        harness.app.inject({ method: 'GET', url: '/api/healthz' }),
        harness.app.inject({ method: 'GET', url: '/api/v1/no-such-route' }),
        harness.app.inject({ method: 'POST', url: '/api/v1/prescreen', payload: '{not json', headers: { 'content-type': 'application/json' } }),
      ]);
      assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 401, 401]);
      assert.equal(requestsInFlight(), before, 'a request was counted and never ended');
    } finally {
      await harness.close();
    }
  });
});
