import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, type PGlite as KyselysPGlite, PGliteDialect } from 'kysely';
import type { Connection, Session } from './connection.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { runPreparing, sessionSets } from './prepared-statements.ts';
import type { Schema } from './schema.ts';

/**
 * PGlite's own start parameters, and one more. A new WAL segment is written through with zeros
 * (16 MB) by default: on the embedded database that happens inside whichever statement fills the
 * last one, on the service's thread. It took 40 ms of the kernel's time under load, a stall for
 * every request waiting behind it, once per 16 MB of writes: a list import's batch or a request's
 * own commit (bench:lists-refresh). Without the zeros the segment is created at its full size at
 * once. The zeros only reserve the disk space ahead of need, and PGlite already runs with fsync
 * off (`-F`), which leaves durability to the operating system.
 */
const START_PARAMS = [...PGlite.defaultStartParams, '-c', 'wal_init_zero=off'];

/**
 * Opens the embedded database. With a folder, its files live in `<dataDir>/pgdata` under an
 * exclusive lock; without one, it lives in memory (tests).
 */
export async function openPgliteConnection(dataDir: string | undefined): Promise<Connection> {
  const lock = dataDir === undefined ? undefined : lockDataDir(dataDir);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(dataDir === undefined ? undefined : path.join(dataDir, 'pgdata'), { startParams: START_PARAMS });
  } catch (error) {
    lock?.release();
    throw error;
  }
  return pgliteConnection(pglite, () => lock?.release());
}

/** Wraps an open PGlite instance; `onClose` runs after it is closed. */
export function pgliteConnection(pglite: PGlite, onClose: () => void = () => {}): Connection {
  const session: Session = {
    exec: async (script) => {
      await pglite.exec(script);
    },
    query: async <Row>(text: string, params?: unknown[]) => (await pglite.query<Row>(text, params)).rows,
  };
  const kysely = new Kysely<Schema>({ dialect: new PGliteDialect({ pglite: simpleWithoutParameters(pglite) }) });
  return {
    backend: 'pglite',
    preparesNamedStatements: true,
    kysely,
    // PGlite has one backend. Holding Kysely's connection (Kysely queues every other caller, as
    // its PGlite adapter has one connection) keeps a script from interleaving with a tenant
    // transaction on that backend.
    withSession: (fn) => kysely.connection().execute(() => fn(session)),
    close: async () => {
      await pglite.close();
      onClose();
    },
  };
}

/**
 * The instance as Kysely's dialect sees it: a statement without parameters goes as a simple query,
 * which may hold several statements and answers with the last one's result, as on PostgreSQL (see
 * db/prepared-statements.ts). So the tenant transaction sends BEGIN with its settings, and its
 * final writes with COMMIT, in one call each here too; each call into PGlite costs ~0.2 ms besides
 * the statement's own work, and a simple query ~0.1 ms less than the extended protocol's parse,
 * bind and execute. What a query's header asks to be prepared is prepared first, once for the
 * instance's one session (see preparedCall in db/prepared-statements.ts). The rest is the
 * instance's own (Kysely's `transaction()` uses PGlite's, whose statements go to PGlite as they are).
 *
 * Each statement starts on a turn of the event loop of its own. PGlite runs a statement on the
 * calling thread and settles its promise without a turn in between, so a chain of statements (a
 * new list version's bookkeeping, a monitoring pass) held the service's thread from its first
 * statement to its last: the requests that arrived meanwhile waited 20–30 ms at a list swap
 * (bench:lists-refresh). On PostgreSQL every statement is a round trip through the socket, which
 * gives the same turn. It costs a request nothing in CPU; at 200/s, p95 rose by about 0.4 ms (bench:api).
 */
function simpleWithoutParameters(pglite: PGlite): KyselysPGlite {
  const session = preparedIn(pglite);
  return {
    query: async <T>(text: string, params?: unknown[], options?: Parameters<PGlite['query']>[2]) => {
      await nextTurn();
      if (params && params.length > 0) return pglite.query<T>(text, params, options);
      const results = await runPreparing(text, session, (statement) => pglite.exec(statement, options));
      return (results.at(-1) ?? { rows: [], fields: [] }) as Awaited<ReturnType<typeof pglite.query<T>>>;
    },
    transaction: (fn) => pglite.transaction(fn),
    close: () => pglite.close(),
    get closed() {
      return pglite.closed;
    },
    get ready() {
      return pglite.ready;
    },
    get waitReady() {
      return pglite.waitReady;
    },
  };
}

/** What each instance's one session has prepared (see runPreparing), whichever wrapper asked. */
const preparedIn = sessionSets<PGlite>();
