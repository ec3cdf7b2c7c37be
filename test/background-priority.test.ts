import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { giveWay, MAX_REST_MS, MAX_WAIT_MS, requestEnded, requestStarted, requestsInFlight, restAfter, SERVING_WINDOW_MS } from '../src/background-priority.ts';
import { buildTestApp } from './helpers/test-app.ts';

describe('background work gives way to requests', () => {
  it('with no request in flight or lately, it goes on after one turn of the event loop', async () => {
    // Counted in turns, not milliseconds: a loaded machine stretches a turn, never adds one. A rest
    // or a wait (a timer) would let thousands of turns go by.
    let turns = 0;
    let counting = true;
    const count = () => {
      turns += 1;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    await giveWay();
    counting = false;
    assert.ok(turns <= 2, `went on after ${turns} turns`);
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

  it('while the process serves, it rests after each step as long as the step ran, up to MAX_REST_MS; an idle process does not rest', () => {
    assert.equal(restAfter(6, 10), 6, 'half of the loop, not all of it, while requests arrive');
    assert.equal(restAfter(MAX_REST_MS * 5, 10), MAX_REST_MS, 'a long step is not paid back all at once');
    assert.equal(restAfter(6, SERVING_WINDOW_MS + 1), 0, 'no request for a while: full speed');
    assert.equal(restAfter(0, 10), 0);
  });

  it('a step taken while requests arrive is followed by a rest before the next', async () => {
    requestStarted();
    requestEnded();
    await giveWay();
    const busyUntil = performance.now() + 8;
    while (performance.now() < busyUntil); // one step of background work
    const started = performance.now();
    await giveWay();
    assert.ok(performance.now() - started >= 7, `rested ${(performance.now() - started).toFixed(1)} ms after an 8 ms step`);
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
