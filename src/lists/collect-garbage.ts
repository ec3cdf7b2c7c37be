/**
 * Full collections on demand, for the background threads only (the index thread, the list-reading
 * thread), which know when they have just left a great deal of garbage behind; the service's
 * thread leaves collections to V8.
 *
 * Node collects on demand only with the --expose-gc flag, which belongs to the whole process: a
 * worker thread cannot be given it alone. Set while the process runs, it gives `gc` to the global
 * scope of every context made afterwards, so `startCollectingThread` sets it just before it starts
 * a thread, whose global scope is made then; the service's own, made at start, never has it.
 *
 * Each collection used to make a throwaway `vm` context to find `gc` in. A thread terminated while
 * such a context was being made (the process ending, as `gatehouse lists update` does right after
 * a read) had V8 print the context's bootstrap script on standard output, after the command's
 * JSON; a server's log lines would have been broken the same way.
 */
import v8 from 'node:v8';
import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startCollectingThread(script: URL, options?: WorkerOptions): Worker {
  v8.setFlagsFromString('--expose-gc');
  return new Worker(script, options);
}

/** In a thread `startCollectingThread` started; elsewhere there is no `gc`, and nothing is done. */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
