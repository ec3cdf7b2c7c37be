/**
 * Run as a process of its own by background-thread.test.ts, which reads what it prints. Starts
 * background threads that do nothing but collect, and terminates each in the middle of that.
 * Reports on stderr how many threads had a collection reclaim an object they had let go of;
 * standard output is left for the test to inspect.
 */
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { isMainThread, parentPort } from 'node:worker_threads';
import { collectGarbage, startBackgroundThread } from '../../src/lists/background-thread.ts';

const THREADS = 20;

if (isMainThread) {
  let reclaimed = 0;
  for (let i = 0; i < THREADS; i++) {
    const thread = startBackgroundThread(new URL(import.meta.url));
    const [freed] = await once(thread, 'message');
    if (freed) reclaimed++;
    await sleep(10 + Math.random() * 40);
    await thread.terminate();
  }
  process.stderr.write(`${reclaimed} of ${THREADS} threads reclaimed what they let go of\n`);
} else {
  parentPort?.postMessage(await collectionReclaims());
  for (;;) collectGarbage();
}

/**
 * A WeakRef keeps its target alive until the end of the turn that made it; on a later turn, only
 * a collection lets the target go.
 */
async function collectionReclaims(): Promise<boolean> {
  const dropped = new WeakRef({ entity: 'dropped' });
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
  return dropped.deref() === undefined;
}
