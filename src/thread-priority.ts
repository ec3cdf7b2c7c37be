/**
 * Which threads of a serving process get the CPU first when there is not enough for all of them.
 * The main thread answers requests. Two kinds of thread only do background work: the worker that
 * reads and parses list files (read-lists-worker.js), and V8's helper threads, which do the
 * parallel and concurrent parts of garbage collection for every thread's heap, the worker's
 * included. Parsing a list makes a great deal of garbage: on one core, with the worker lowered
 * but V8's helpers not, the helpers took about 45% of the core in turns of a few milliseconds
 * while a refresh parsed the SDN, and requests waited 20–45 ms behind them (bench:lists-refresh,
 * BENCHMARKS.md). With both lowered, requests during the parse were answered as in a quiet period.
 *
 * On Linux a thread has its own nice value: setpriority on a thread id (0 for the calling thread)
 * lowers that thread only. Elsewhere the same call lowers the whole process, requests included,
 * so nothing is done there. A lowered thread cannot be raised again without privilege, which is
 * why only threads that never answer a request are lowered. On a machine with an idle core a
 * lowered thread runs as fast as before: nice only decides who waits when the cores are busy.
 */
import fs from 'node:fs';
import os from 'node:os';

/**
 * Low enough that a busy main thread keeps about nine tenths of a shared core (the kernel's
 * weights: 1024 against 110). The list-reading worker lowers itself to the same value, first
 * thing, before the module loader it registers starts a thread of its own (read-lists-worker.js).
 */
export const BACKGROUND_NICE = 10;

/** Node names V8's helper threads so from version 24 on; before, every thread is called "node" and none can be told apart. */
const V8_HELPER_THREAD_NAME = 'V8Worker';

const lowersThreadsAlone = os.platform() === 'linux';

/** Lowers V8's helper threads; answers how many were lowered. */
export function lowerV8HelperThreads(): number {
  if (!lowersThreadsAlone) return 0;
  let lowered = 0;
  for (const threadId of threadIds()) {
    if (threadName(threadId) === V8_HELPER_THREAD_NAME && lower(threadId)) lowered += 1;
  }
  return lowered;
}

function threadIds(): number[] {
  try {
    return fs.readdirSync('/proc/self/task').map(Number);
  } catch {
    return []; // no /proc (a restricted container): nothing is lowered
  }
}

function threadName(threadId: number): string | undefined {
  try {
    return fs.readFileSync(`/proc/self/task/${threadId}/comm`, 'utf8').trim();
  } catch {
    return undefined; // the thread ended meanwhile
  }
}

function lower(threadId: number): boolean {
  try {
    os.setPriority(threadId, BACKGROUND_NICE);
    return true;
  } catch {
    return false; // a sandbox may refuse it: the thread keeps the process's priority
  }
}
