import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import {
  giveWay,
  giveWayOnThread,
  MAX_REST_MS,
  MAX_WAIT_MS,
  pausesOnThread,
  requestEnded,
  requestSignals,
  requestStarted,
  requestsInFlight,
  restAfter,
  SERVING_WINDOW_MS,
} from '../src/background-priority.ts';
import { countTurns } from './helpers/event-loop-turns.ts';
import { buildTestApp } from './helpers/test-app.ts';

describe('background work gives way to requests', () => {
  it('with no request in flight or lately, it goes on after one turn of the event loop', async () => {
    // A rest or a wait (a timer) would let thousands of turns go by.
    const counter = countTurns();
    await giveWay();
    const turns = counter.stop();
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

  it('another thread sees the requests in flight through shared memory, and gives way by the same rules', async () => {
    const signals = requestSignals();
    const inFlight = new Int32Array(signals, 0, 1);
    requestStarted();
    assert.equal(Atomics.load(inFlight, 0), requestsInFlight());
    requestEnded();
    assert.equal(Atomics.load(inFlight, 0), requestsInFlight());

    // As another thread would, against a process of its own: idle, then serving with a request in flight.
    const other = new SharedArrayBuffer(16);
    const theirs = new Int32Array(other, 0, 1);
    const lastRequestAt = new Float64Array(other, 8, 1);
    lastRequestAt[0] = Number.NEGATIVE_INFINITY;
    let started = performance.now();
    giveWayOnThread(other, 8);
    assert.ok(performance.now() - started < 5, 'an idle process: no rest, no wait');

    lastRequestAt[0] = performance.timeOrigin + performance.now();
    Atomics.store(theirs, 0, 1);
    started = performance.now();
    giveWayOnThread(other, 0);
    const capped = performance.now() - started;
    assert.ok(capped >= MAX_WAIT_MS - 1 && capped < MAX_WAIT_MS + 200, `waited ${capped.toFixed(1)} ms for a request that never ended`);

    // The request ends on another thread 5 ms from now: the wait ends with it, not at the cap. On a busy machine that
    // thread's timer can fire after the cap, which proves nothing either way, so it gets a few tries to land inside it.
    const tries: string[] = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      Atomics.store(theirs, 0, 1);
      const ender = new Worker(
        `const { workerData } = require('node:worker_threads');
         const inFlight = new Int32Array(workerData, 0, 1);
         setTimeout(() => { Atomics.store(inFlight, 0, 0); Atomics.notify(inFlight, 0); }, 5);`,
        { eval: true, workerData: other },
      );
      await new Promise((resolve) => ender.once('online', resolve));
      started = performance.now();
      giveWayOnThread(other, 0);
      const waited = performance.now() - started;
      const endedFirst = Atomics.load(theirs, 0) === 0;
      await new Promise((resolve) => ender.once('exit', resolve));
      tries.push(`${waited.toFixed(1)} ms, ${endedFirst ? 'ended' : 'still in flight'}`);
      // Waited (not straight through), went on once the request ended, and before the cap.
      if (endedFirst && waited >= 2 && waited < MAX_WAIT_MS - 2) return;
    }
    assert.fail(`never went on as the request ended: ${tries.join('; ')}`);
  });

  it("another thread's pause gives way as soon as a request is in flight, not only at the end of its slice, and after a capped wait runs a whole slice", () => {
    const other = new SharedArrayBuffer(16);
    const theirs = new Int32Array(other, 0, 1);
    new Float64Array(other, 8, 1)[0] = Number.NEGATIVE_INFINITY;
    const sliceMs = 1_000;
    const pause = pausesOnThread(other, sliceMs);

    let started = performance.now();
    pause();
    assert.ok(performance.now() - started < 5, 'nothing in flight and the slice not over: no pause');

    Atomics.store(theirs, 0, 1); // a request that never ends
    started = performance.now();
    pause();
    const waited = performance.now() - started;
    assert.ok(waited >= MAX_WAIT_MS - 1, `went on after ${waited.toFixed(1)} ms with a request in flight, long before its slice of ${sliceMs} ms ended`);

    // The wait ran into its cap: under unbroken load the next steps run as one slice, without waiting.
    started = performance.now();
    for (let step = 0; step < 100; step++) pause();
    assert.ok(performance.now() - started < 5, 'after a capped wait the work went on waiting at every step');
  });

  it('leaves its core for a moment every quarter millisecond of work, so that a thread woken meanwhile runs at once', () => {
    const other = new SharedArrayBuffer(16);
    new Float64Array(other, 8, 1)[0] = Number.NEGATIVE_INFINITY; // no request in flight, none lately: no slice ends, no rest
    const pause = pausesOnThread(other, 1_000);
    // 200 quarter milliseconds in 50 ms, a sleep (a voluntary switch) each; without them the loop switches only
    // when preempted: 0–14 times here, against 50–58 with them while three busy loops shared the two CPUs, which
    // take turns of the loop's 50 ms. A few tries.
    const tries: string[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      const before = process.resourceUsage().voluntaryContextSwitches;
      const started = performance.now();
      let steps = 0;
      for (; performance.now() - started < 50; steps++) pause();
      const left = process.resourceUsage().voluntaryContextSwitches - before;
      assert.ok(steps > 1_000, `only ${steps} steps in 50 ms: the moments away were not brief`);
      if (left >= 40) return;
      tries.push(`${left} times (${steps} steps)`);
    }
    assert.fail(`left the core too rarely in 50 ms of work: ${tries.join('; ')}`);
  });
});
