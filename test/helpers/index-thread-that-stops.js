// An index thread (src/lists/index-thread-worker.js) that stops, as a thread out of memory would,
// when asked to screen the name "Stop Now": for the tests of what its process does then.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { serveIndex } = await import('../../src/lists/index-thread-task.ts');
parentPort.on('message', (message) => {
  if (message.kind === 'screen' && message.query.name === 'Stop Now') process.exit(3);
});
serveIndex(parentPort, workerData.signals);
