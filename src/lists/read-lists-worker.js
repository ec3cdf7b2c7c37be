// The worker thread that reads, parses and hashes list files (read-lists-in-worker.ts starts it
// once and sends it one request at a time).
// The sources are TypeScript run through tsx, whose loader a new thread does not inherit from
// bin/gatehouse.js: this plain JavaScript entry registers it, then imports the TypeScript task.
// (Under `node --import tsx`, as the tests run, the thread has it already; registering again is harmless.)
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

const WORKER_NICE = 10;

// Reading lists is background work. On Linux a thread has its own nice value, so this lowers this
// thread only: on a busy machine the service's main thread keeps the CPU it answers requests with.
// (Elsewhere the call would lower the whole process, requests included, so it is not made.)
// First thing, so that the thread tsx's loader starts below inherits it: the modules it
// transforms are work of this import too. The value is src/thread-priority.ts's BACKGROUND_NICE,
// which this plain script cannot import before that loader is registered.
if (os.platform() === 'linux') {
  try {
    os.setPriority(WORKER_NICE);
  } catch {
    // A container may refuse it; the worker then runs at the process's priority.
  }
}

register();
const { serveReads } = await import('./read-lists-task.ts');
serveReads(parentPort);
