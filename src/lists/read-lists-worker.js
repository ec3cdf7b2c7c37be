// The worker thread that reads, parses and hashes list files (read-lists-in-worker.ts starts it).
// The sources are TypeScript run through tsx, whose loader a new thread does not inherit from
// bin/gatehouse.js: this plain JavaScript entry registers it, then imports the TypeScript task.
// (Under `node --import tsx`, as the tests run, the thread has it already; registering again is harmless.)
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { readAndPrepareLists } = await import('./read-lists-task.ts');
await readAndPrepareLists(workerData, (message, transfer) => parentPort.postMessage(message, transfer));
