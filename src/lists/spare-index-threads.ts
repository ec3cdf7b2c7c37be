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
import { startCollectingThread } from './collect-garbage.ts';
import type { FromIndexThread, ToIndexThread } from './index-thread-task.ts';

const MAX_SPARES = 1;

/** A kept thread; `take` stops watching it and hands it over. */
type Spare = { take(): Worker };

/** Kept threads, by the script they run (a test runs its own). */
const spares = new Map<string, Spare[]>();
/** Threads being emptied, which will be kept if there is room then. */
let emptying = 0;

/** How many threads are kept now. */
export const keptIndexThreads = (): number => [...spares.values()].reduce((sum, kept) => sum + kept.length, 0);

/** A kept thread that runs `script`, or a new one. */
export function takeIndexThread(script: URL, workerData: unknown): Worker {
  return spares.get(script.href)?.pop()?.take() ?? startCollectingThread(script, { workerData });
}

/**
 * Starts a thread to keep, if none is kept or being emptied: a serving process's first refresh
 * then builds on a thread started before it served, as later refreshes do.
 */
export function keepNewIndexThread(script: URL, workerData: unknown): void {
  if ((spares.get(script.href)?.length ?? 0) + emptying > 0) return;
  // Emptied like a retired thread: answered once its modules are loaded, with nothing to let go.
  keepIndexThread(startCollectingThread(script, { workerData }), script);
}

/**
 * Empties a retired thread that has nothing left to answer, and keeps it for the next snapshot;
 * ends it instead if a thread is already kept, or if emptying it fails.
 */
export function keepIndexThread(worker: Worker, script: URL): void {
  const kept = spares.get(script.href) ?? [];
  spares.set(script.href, kept);
  if (kept.length + emptying >= MAX_SPARES) {
    void worker.terminate();
    return;
  }
  let state: 'emptying' | 'kept' | 'gone' = 'emptying';
  const leave = (next: 'kept' | 'gone') => {
    if (state === 'emptying') emptying -= 1;
    else if (state === 'kept' && kept.includes(spare)) kept.splice(kept.indexOf(spare), 1);
    state = next;
    worker.off('message', onMessage);
    if (next === 'gone') {
      worker.off('error', lost);
      worker.off('exit', lost);
    }
  };
  // A thread that fails or stops while emptied or kept is ended and forgotten, never taken again.
  const lost = () => {
    leave('gone');
    void worker.terminate();
  };
  const onMessage = (message: FromIndexThread) => {
    if (message.kind !== 'emptied') return lost();
    leave('kept');
    kept.push(spare);
  };
  const spare: Spare = {
    take() {
      leave('gone');
      worker.ref(); // as a new thread is, while it builds
      return worker;
    },
  };
  emptying += 1;
  worker.unref();
  worker.on('message', onMessage);
  worker.on('error', lost);
  worker.on('exit', lost);
  worker.postMessage({ kind: 'empty' } satisfies ToIndexThread);
}
