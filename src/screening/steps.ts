/**
 * Long synchronous work (building an index over every list entity takes about a second) written
 * as a generator that pauses between small steps, so that one body of code runs either at once
 * or in slices between which a service answers its requests. Nothing here knows about a service:
 * `inSlices` gives way (src/background-priority.ts) whenever a slice has run for `sliceMs`.
 */
import { giveWay } from '../background-priority.ts';

/** Work that pauses (yields nothing) between steps and returns its result at the end. */
export type Steps<T> = Generator<void, T, void>;

/** A few milliseconds: a request that arrives during a slice waits at most about this long. */
export const DEFAULT_SLICE_MS = 4;

/** Runs every step at once. */
export function finish<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Runs the steps in slices of about `sliceMs`, letting timers, I/O, other callbacks and requests in flight run between slices. */
export function inSlices<T>(steps: Steps<T>, sliceMs: number): Promise<T> {
  return sliced(steps, sliceMs, giveWay);
}

/**
 * Runs the steps in slices of about `sliceMs` with one turn of the event loop between them, for
 * work a request is waiting on: other requests are answered between slices, but unlike `inSlices`
 * it never rests or waits for the requests in flight, one of which is its own.
 */
export function inTurns<T>(steps: Steps<T>, sliceMs: number): Promise<T> {
  return sliced(steps, sliceMs, () => new Promise((resolve) => setImmediate(resolve)));
}

/** An array mapped one item a step: `items.map(map)`, for `inTurns` or `inSlices` to run in slices. */
function* mapSteps<T, U>(items: readonly T[], map: (item: T, index: number) => U): Steps<U[]> {
  const mapped: U[] = [];
  for (let i = 0; i < items.length; i++) {
    mapped.push(map(items[i] as T, i));
    yield;
  }
  return mapped;
}

/** `items.map(map)` run in slices (`inSlices`), for background work over a long array. */
export function mapInSlices<T, U>(items: readonly T[], map: (item: T, index: number) => U, sliceMs = DEFAULT_SLICE_MS): Promise<U[]> {
  return inSlices(mapSteps(items, map), sliceMs);
}

/** `items.map(map)` run turn by turn (`inTurns`), for a request waiting on a long array's worth of work. */
export function mapInTurns<T, U>(items: readonly T[], map: (item: T, index: number) => U, sliceMs = DEFAULT_SLICE_MS): Promise<U[]> {
  return inTurns(mapSteps(items, map), sliceMs);
}

async function sliced<T>(steps: Steps<T>, sliceMs: number, between: () => Promise<unknown>): Promise<T> {
  let sliceStarted = performance.now();
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStarted >= sliceMs) {
      await between();
      sliceStarted = performance.now();
    }
  }
}
