/**
 * Background work (a new list version being written, read back and indexed) shares the event loop
 * with the requests it must not delay. It runs in small steps and calls `giveWay()` between them:
 * one turn of the event loop, then, while a request of this process is in flight, a wait until
 * none is. So it runs in the gaps between requests instead of taking turns with them, and a
 * request that arrives meanwhile waits for one step at most. The wait is capped (MAX_WAIT_MS):
 * under unbroken load, or with a long download in flight, background work still advances.
 *
 * Requests are counted for the whole process (src/http/requests-in-flight.ts), because the event
 * loop they share is the process's.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Long enough for a typical request to finish, short enough that an index build under full load still ends. */
export const MAX_WAIT_MS = 20;

let inFlight = 0;
let waiting: (() => void)[] = [];

export function requestStarted() {
  inFlight += 1;
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
  await nextTurn();
  if (inFlight === 0) return;
  await new Promise<void>((resolve) => {
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
