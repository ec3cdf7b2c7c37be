/**
 * Index threads kept between snapshots. A new thread loads and compiles its modules before it can
 * build anything, at full priority (a thread that will answer screenings cannot be lowered, see
 * thread-priority.ts), and its first screenings run unoptimized: on a shared core that start
 * alone slowed the requests around a refresh by 1.6–1.8 × (bench:index-swap, BENCHMARKS.md). A
 * retired snapshot's thread is instead emptied (its index and entities let go and collected,
 * while nothing waits on it) and kept, and the next snapshot is built on it.
 *
 * One thread is kept at most: the service holds one snapshot and builds the next, so a second
 * spare would only hold memory (an emptied thread holds some tens of megabytes). A kept thread
 * does not keep the process running.
 */
import type { Worker } from 'node:worker_threads';
import { startBackgroundThread } from './background-thread.ts';
import type { FromIndexThread, ToIndexThread } from './index-thread-task.ts';

const MAX_SPARES = 1;

/** A thread being emptied (`ready` false) or kept; `take` stops watching it and hands it over. */
type Spare = { ready: boolean; take(): Worker };

/** Threads being emptied or kept, by the script they run (a test runs its own). */
const spares = new Map<string, Spare[]>();

const sparesOf = (script: URL): Spare[] => {
  const list = spares.get(script.href) ?? [];
  spares.set(script.href, list);
  return list;
};

/** How many threads are kept now, emptied and ready to build on. */
export const keptIndexThreads = (): number => [...spares.values()].flat().filter((spare) => spare.ready).length;

/** A kept thread that runs `script`, or a new one. */
export function takeIndexThread(script: URL, workerData: unknown): Worker {
  return (
    sparesOf(script)
      .find((spare) => spare.ready)
      ?.take() ?? startBackgroundThread(script, { workerData })
  );
}

/**
 * Starts a thread to keep, if none is kept or being emptied: a serving process's first refresh
 * then builds on a thread started before it served, as later refreshes do.
 */
export function keepNewIndexThread(script: URL, workerData: unknown): void {
  if (sparesOf(script).length > 0) return;
  // Emptied like a retired thread: answered once its modules are loaded, with nothing to let go.
  keepIndexThread(startBackgroundThread(script, { workerData }), script);
}

/**
 * Empties a retired thread that has nothing left to answer, and keeps it for the next snapshot;
 * ends it instead if a thread is already kept or being emptied, or if emptying it fails.
 */
export function keepIndexThread(worker: Worker, script: URL): void {
  const list = sparesOf(script);
  if (list.length >= MAX_SPARES) {
    void worker.terminate();
    return;
  }
  const forget = () => {
    const at = list.indexOf(spare);
    if (at >= 0) list.splice(at, 1);
    worker.off('message', onMessage);
    worker.off('error', lost);
    worker.off('exit', lost);
  };
  // A thread that fails or stops while emptied or kept is ended and forgotten, never taken again.
  const lost = () => {
    forget();
    void worker.terminate();
  };
  const onMessage = (message: FromIndexThread) => {
    if (message.kind !== 'emptied') return lost();
    worker.off('message', onMessage);
    spare.ready = true;
  };
  const spare: Spare = {
    ready: false,
    take() {
      forget();
      worker.ref(); // as a new thread is, while it builds
      return worker;
    },
  };
  list.push(spare);
  worker.unref();
  worker.on('message', onMessage);
  worker.on('error', lost);
  worker.on('exit', lost);
  worker.postMessage({ kind: 'empty' } satisfies ToIndexThread);
}
