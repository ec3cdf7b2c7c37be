/**
 * Background work (a new list version being written, read back and indexed) shares the event loop
 * with the requests it must not delay. It runs in small steps and calls `giveWay()` between them:
 * 1. one turn of the event loop;
 * 2. while the process is serving (a request arrived in the last SERVING_WINDOW_MS), a rest as
 *    long as the work just ran, so that background work takes at most half of the loop's time
 *    (as PostgreSQL's vacuum_cost_delay keeps vacuum from starving queries): a loop filled to the
 *    brim by background work queues every request that arrives behind the one before it, and
 *    the tail latency is what that queue makes it. An idle process works at full speed;
 * 3. while a request of this process is in flight, a wait until none is, so it runs in the gaps
 *    between requests instead of taking turns with them, and a request that arrives meanwhile
 *    waits for one step at most. The wait is capped (MAX_WAIT_MS): under unbroken load, or with a
 *    long download in flight, background work still advances.
 *
 * Requests are counted for the whole process (src/http/requests-in-flight.ts), because the event
 * loop they share is the process's. The counts are also shared, through memory, with threads
 * that do background work of their own (the index thread, src/lists/index-thread.ts): on a busy
 * core they compete with the requests for the CPU rather than for the loop, and `giveWayOnThread`
 * lets them give way by the same rules.
 */
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

/** Long enough for a typical request to finish, short enough that an index build under full load still ends. */
export const MAX_WAIT_MS = 20;
/** A process that answered a request this recently is serving, and background work rests between steps. */
export const SERVING_WINDOW_MS = 1_000;
/** The longest rest after one step: a step that ran long (a slow statement) is not paid back all at once. */
export const MAX_REST_MS = 20;

let inFlight = 0;
let waiting: (() => void)[] = [];
let lastRequestAt = Number.NEGATIVE_INFINITY;
/** When background work last went on after giving way: what ran since is its step. */
let resumedAt: number | undefined;

/** [0]: requests in flight (Int32, for Atomics.wait); from byte 8: when the last one arrived, in ms since the epoch (Float64). */
const signals = new SharedArrayBuffer(16);
const sharedInFlight = new Int32Array(signals, 0, 1);
const sharedLastRequestAt = new Float64Array(signals, 8, 1);
sharedLastRequestAt[0] = Number.NEGATIVE_INFINITY;
/** Never notified: for a thread's timed sleeps. */
const nothingToWaitFor = new Int32Array(new SharedArrayBuffer(4));

/** The memory through which another thread of this process sees its requests (for `giveWayOnThread`). */
export const requestSignals = (): SharedArrayBuffer => signals;

export function requestStarted() {
  inFlight += 1;
  lastRequestAt = performance.now();
  Atomics.store(sharedInFlight, 0, inFlight);
  sharedLastRequestAt[0] = performance.timeOrigin + lastRequestAt;
}

export function requestEnded() {
  inFlight = Math.max(0, inFlight - 1);
  Atomics.store(sharedInFlight, 0, inFlight);
  Atomics.notify(sharedInFlight, 0);
  if (inFlight > 0 || waiting.length === 0) return;
  const released = waiting;
  waiting = [];
  // After the answer is on its way: the response's own callbacks run first.
  setImmediate(() => {
    for (const resume of released) resume();
  });
}

export const requestsInFlight = () => inFlight;

/** Between two steps of background work. */
export async function giveWay(): Promise<void> {
  const now = performance.now();
  // Measured from the last resume, so it also counts requests' work that interleaved: a busier process rests more.
  const ran = resumedAt === undefined ? 0 : now - resumedAt;
  await nextTurn();
  const rest = restAfter(ran, now - lastRequestAt);
  if (rest > 0) await sleep(rest);
  if (inFlight > 0) await untilNoRequestInFlight();
  resumedAt = performance.now();
}

/**
 * `giveWay` for a thread other than the one that serves, after a step of `ranMs`: the same rest
 * while the process is serving, then the same capped wait while one of its requests is in flight,
 * both slept (the thread has no requests of its own to answer meanwhile). `signals`: `requestSignals()`
 * of the serving thread. Answers false when the wait ran into its cap, the request still in flight.
 */
export function giveWayOnThread(signals: SharedArrayBuffer, ranMs: number): boolean {
  const inFlightThere = new Int32Array(signals, 0, 1);
  const lastThere = new Float64Array(signals, 8, 1);
  const rest = restAfter(ranMs, performance.timeOrigin + performance.now() - (lastThere[0] as number));
  if (rest > 0) Atomics.wait(nothingToWaitFor, 0, 0, rest);
  const deadline = performance.now() + MAX_WAIT_MS;
  let requests = Atomics.load(inFlightThere, 0);
  for (; requests > 0 && performance.now() < deadline; requests = Atomics.load(inFlightThere, 0)) {
    Atomics.wait(inFlightThere, 0, requests, deadline - performance.now());
  }
  return requests === 0;
}

/**
 * How often a thread doing background work leaves its core for a moment, and for how long. On a
 * shared core the kernel lets a running thread finish its turn (milliseconds: 4 ms turns of other
 * threads showed in an index build's steps here) before a thread that has just woken up runs, so
 * a request that arrived while the background thread ran waited for the serving thread to be
 * scheduled, before either could see it. A thread that sleeps, however briefly, hands the core
 * over at once. Leaving it every quarter millisecond lowered p99 during an index build by about a
 * sixth on average in bench:index-swap (BENCHMARKS.md), at some 10–20% of the build's speed.
 */
const LEAVE_CORE_EVERY_MS = 0.25;
const LEAVE_CORE_FOR_MS = 0.02;
const leaveCore = () => Atomics.wait(nothingToWaitFor, 0, 0, LEAVE_CORE_FOR_MS);

/**
 * The pause another thread calls between the small steps of its background work: gives way
 * (`giveWayOnThread`) after every `sliceMs` of work, and also as soon as a request of the serving
 * thread is in flight. A thread has the core to itself only between the kernel's turns: on a core
 * it shares with the serving thread, a request that arrived during a slice was answered at half
 * speed until the slice ended (the index thread, bench:lists-refresh). Looking costs one atomic
 * read a step. After a wait that ran into its cap, the next slice runs whole, so that under
 * unbroken load the work still advances a slice per MAX_WAIT_MS. Between pauses of either kind,
 * it leaves the core for a moment every LEAVE_CORE_EVERY_MS, so that a thread woken meanwhile (a
 * request's) runs without waiting out this one's turn.
 */
export function pausesOnThread(signals: SharedArrayBuffer, sliceMs: number): () => void {
  const inFlightThere = new Int32Array(signals, 0, 1);
  let sliceStarted = performance.now();
  let yieldsEarly = true;
  let coreLeftAt = sliceStarted;
  return () => {
    const now = performance.now();
    if (now - coreLeftAt >= LEAVE_CORE_EVERY_MS) {
      leaveCore();
      coreLeftAt = performance.now();
    }
    const ran = now - sliceStarted;
    if (ran < sliceMs && !(yieldsEarly && Atomics.load(inFlightThere, 0) > 0)) return;
    yieldsEarly = giveWayOnThread(signals, ran);
    sliceStarted = performance.now();
  };
}

/** How long background work rests after a step that ran `ranMs`, the last request having arrived `sinceRequestMs` ago. */
export function restAfter(ranMs: number, sinceRequestMs: number): number {
  if (sinceRequestMs >= SERVING_WINDOW_MS) return 0;
  return Math.min(Math.max(0, ranMs), MAX_REST_MS);
}

function untilNoRequestInFlight(): Promise<void> {
  return new Promise<void>((resolve) => {
    const resume = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      waiting = waiting.filter((w) => w !== resume);
      resolve();
    }, MAX_WAIT_MS);
    waiting.push(resume);
  });
}
