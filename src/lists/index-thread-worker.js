// The thread that holds a list snapshot's screening index (index-thread.ts starts it). Like
// read-lists-worker.js, plain JavaScript that registers tsx's loader, which a new thread does
// not inherit from bin/gatehouse.js, then imports the TypeScript task. Unlike that worker it is
// not lowered: once built it answers screenings, and a lowered thread cannot be raised again.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { serveIndex } = await import('./index-thread-task.ts');
serveIndex(parentPort, workerData.signals);
