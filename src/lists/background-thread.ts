/**
 * The threads that do background work (the index thread, the list-reading thread), and the full
 * collections they run on demand. Both are a matter of each thread's heap, which V8 configures
 * from the process's flags when the thread starts: a flag set while the process runs reaches every
 * heap made afterwards, never the service's own, made at start. So `startBackgroundThread` sets
 * them just before it starts a thread.
 *
 * A small young generation (BACKGROUND_SEMI_SPACE_MB). What a background thread allocates mostly
 * survives (entities, an index), and a scavenge's pause grows with what survives it: with the
 * service's 32 MiB semi-spaces (`npm start`, for the serving thread's throughput) an index build's
 * scavenges took 20 to 49 ms each. They cannot be interrupted, and on a core shared with the
 * serving threads each one held back the requests that arrived during it, waiting for the kernel's
 * next turn at every hand-over between threads; about three in four slow answers during a build
 * overlapped one of its collections (bench:index-swap, BENCHMARKS.md). With 2 MiB there are some ten times more of them, of a
 * few milliseconds each, and builds take no longer. Worker's own `resourceLimits` cannot do it:
 * a `--max-semi-space-size` given to the process overrides them.
 *
 * Collections on demand, for these threads only, which know when they have just left a great
 * deal of garbage behind; the service's thread leaves collections to V8. Node collects on demand
 * only with the --expose-gc flag, which belongs to the whole process: a worker thread cannot be
 * given it alone, and it gives `gc` to the global scope of every context made after it is set.
 *
 * Each collection used to make a throwaway `vm` context to find `gc` in. A thread terminated while
 * such a context was being made (the process ending, as `gatehouse lists update` does right after
 * a read) had V8 print the context's bootstrap script on standard output, after the command's
 * JSON; a server's log lines would have been broken the same way.
 */
import v8 from 'node:v8';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** The most each of a background thread's two semi-spaces (its young generation) may grow to. */
export const BACKGROUND_SEMI_SPACE_MB = 2;

export function startBackgroundThread(script: URL, options?: WorkerOptions): Worker {
  v8.setFlagsFromString('--expose-gc');
  v8.setFlagsFromString(`--max-semi-space-size=${BACKGROUND_SEMI_SPACE_MB}`);
  return new Worker(script, options);
}

/** In a thread `startBackgroundThread` started; elsewhere there is no `gc`, and nothing is done. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
