/**
 * The embedded database's own thread (see pglite-thread.ts): opens PGlite in the folder it is
 * given (in memory without one) and answers each message with a query's rows, a script's end, or
 * the error as plain fields, since a thrown error crosses threads without its `code`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import type { ThreadReply, ThreadRequest } from './pglite-thread.ts';

const port = parentPort;
if (!port) throw new Error('pglite-worker.ts runs as a worker thread');
const reply = (message: ThreadReply) => port.postMessage(message);

try {
  const pglite = await PGlite.create((workerData as { dataDir?: string }).dataDir);
  port.on('message', async ({ id, kind, text, params }: ThreadRequest) => {
    try {
      if (kind === 'query') {
        const result = await pglite.query(text, params);
        reply({ id, rows: result.rows as unknown[], ...(result.affectedRows !== undefined && { affectedRows: result.affectedRows }) });
      } else if (kind === 'exec') {
        await pglite.exec(text);
        reply({ id, rows: [] });
      } else {
        await pglite.close();
        reply({ id, rows: [] });
        port.close();
      }
    } catch (error) {
      // PostgreSQL's fields (code, constraint, table, …) are plain values: only those cross the thread.
      const fields = Object.entries(error as object).filter(([, value]) => ['string', 'number', 'boolean'].includes(typeof value));
      reply({ id, error: { ...Object.fromEntries(fields), message: (error as Error).message, name: (error as Error).name } });
    }
  });
  reply({ id: 0, rows: [] }); // open: ready for queries
} catch (error) {
  reply({ id: 0, error: { message: (error as Error).message, name: (error as Error).name } });
}
