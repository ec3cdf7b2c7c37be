/**
 * Run as a process of its own by background-thread.test.ts, with the service's
 * `--max-semi-space-size=32`. Runs the same allocation on a background thread and on a thread
 * started plainly: objects kept in great numbers, as an index build keeps them, which grows a
 * young generation to its most. Prints, as JSON, the size of each thread's new space (its two
 * semi-spaces) after that, in bytes.
 */
import { once } from 'node:events';
import v8 from 'node:v8';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { startBackgroundThread } from '../../src/lists/background-thread.ts';

if (isMainThread) {
  const newSpaceAfter = async (thread: Worker) => {
    const [bytes] = await once(thread, 'message');
    await thread.terminate();
    return bytes as number;
  };
  const plain = await newSpaceAfter(new Worker(new URL(import.meta.url)));
  const background = await newSpaceAfter(startBackgroundThread(new URL(import.meta.url)));
  process.stdout.write(`${JSON.stringify({ background, plain })}\n`);
} else {
  const kept: { n: number; name: string }[] = [];
  for (let i = 0; i < 2_000_000; i++) kept.push({ n: i, name: `entity ${i}` });
  parentPort?.postMessage(v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0);
}
