/**
 * The embedded database in a worker thread. PGlite runs PostgreSQL compiled to WebAssembly in the
 * thread that calls it, so in the service's main thread every statement's planning and execution
 * stopped HTTP, JSON and screening work: under load the database was half of the main thread's
 * time (BENCHMARKS.md, "Load"). In its own thread it runs on the other core beside them, and the
 * main thread only waits for answers, as with PostgreSQL.
 *
 * This is the main thread's side: a stand-in with the three methods the service uses (`query`,
 * `exec`, `close`), each a message to pglite-worker.ts and its answer. Statements still run one
 * at a time, as on PGlite's single connection; Kysely's driver keeps a transaction's statements
 * together as before.
 */
import { Worker } from 'node:worker_threads';

export type ThreadRequest = { id: number; kind: 'query' | 'exec' | 'close'; text: string; params?: unknown[] };
export type ThreadReply = { id: number; rows: unknown[]; affectedRows?: number } | { id: number; error: Record<string, unknown> & { message: string } };

/** What the service calls on PGlite; a PGlite instance has the same shape. */
export type PgliteLike = {
  query<Row>(text: string, params?: unknown[]): Promise<{ rows: Row[]; affectedRows?: number }>;
  exec(script: string): Promise<unknown>;
  close(): Promise<void>;
};

/**
 * The worker loads TypeScript through tsx, as the main thread does; a worker does not inherit
 * the loader that bin/gatehouse.js registers, so it registers its own before the module.
 */
const BOOT = `import('tsx/esm/api').then(({ register }) => { register(); return import(require('node:worker_threads').workerData.module); });`;

export async function startPgliteThread(dataDir: string | undefined): Promise<PgliteLike> {
  const worker = new Worker(BOOT, {
    eval: true,
    workerData: { module: new URL('./pglite-worker.ts', import.meta.url).href, ...(dataDir !== undefined && { dataDir }) },
  });
  const pending = new Map<number, { resolve: (reply: ThreadReply) => void; reject: (error: Error) => void }>();
  let next = 1;
  let failed: Error | undefined;
  const failAll = (error: Error) => {
    failed ??= error;
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
  };
  worker.on('error', failAll);
  worker.on('exit', (code) => failAll(new Error(`the embedded database's thread exited (code ${code})`)));
  worker.on('message', (reply: ThreadReply) => {
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    waiting?.resolve(reply);
  });

  const send = (kind: ThreadRequest['kind'], text = '', params?: unknown[]) =>
    new Promise<ThreadReply>((resolve, reject) => {
      if (failed) return reject(failed);
      const id = next++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, kind, text, ...(params && { params }) } satisfies ThreadRequest);
    }).then((reply) => {
      if ('error' in reply) throw Object.assign(new Error(reply.error.message), reply.error);
      return reply;
    });

  // Wait for PGlite to open (or to fail opening) before anyone queries it.
  await new Promise<ThreadReply>((resolve, reject) => pending.set(0, { resolve, reject })).then((reply) => {
    if ('error' in reply) throw Object.assign(new Error(`the embedded database did not open: ${reply.error.message}`), reply.error);
  });
  return {
    query: async <Row>(text: string, params?: unknown[]) => {
      const reply = (await send('query', text, params)) as { rows: Row[]; affectedRows?: number };
      return { rows: reply.rows, ...(reply.affectedRows !== undefined && { affectedRows: reply.affectedRows }) };
    },
    exec: (script) => send('exec', script),
    close: async () => {
      await send('close');
      await worker.terminate();
    },
  };
}
