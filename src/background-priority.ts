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
 * loop they share is the process's.
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

export function requestStarted() {
  inFlight += 1;
  lastRequestAt = performance.now();
}

export function requestEnded() {
  inFlight = Math.max(0, inFlight - 1);
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
