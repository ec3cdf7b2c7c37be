import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { Connection, Session } from './connection.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { runPreparing, sessionSets } from './prepared-statements.ts';
import type { Schema } from './schema.ts';

/**
 * Opens the embedded database. With a folder, its files live in `<dataDir>/pgdata` under an
 * exclusive lock; without one, it lives in memory (tests).
 */
export async function openPgliteConnection(dataDir: string | undefined): Promise<Connection> {
  const lock = dataDir === undefined ? undefined : lockDataDir(dataDir);
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(dataDir === undefined ? undefined : path.join(dataDir, 'pgdata'));
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
  const kysely = new Kysely<Schema>({ dialect: new PGliteDialect(simpleWithoutParameters(pglite)) });
  return {
    backend: 'pglite',
    preparesNamedStatements: true,
    kysely,
    // PGlite has one backend. Holding Kysely's connection (its dialect queues every other
    // caller) keeps a script from interleaving with a tenant transaction on that backend.
    withSession: (fn) => kysely.connection().execute(() => fn(session)),
    close: async () => {
      await pglite.close();
      onClose();
    },
  };
}

/**
 * The instance as Kysely's dialect sees it (it calls only `query`): a statement without
 * parameters goes as a simple query, which may hold several statements and answers with the last
 * one's result, as on PostgreSQL (see db/prepared-statements.ts). So the tenant transaction sends
 * BEGIN with its settings, and its final writes with COMMIT, in one call each here too; each call
 * into PGlite costs ~0.2 ms besides the statement's own work, and a simple query ~0.1 ms less than
 * the extended protocol's parse, bind and execute. What a query's header asks to be prepared is
 * prepared first, once for the instance's one session (see preparedCall in db/prepared-statements.ts).
 */
function simpleWithoutParameters(pglite: PGlite): PGlite {
  const session = preparedIn(pglite);
  const query = async (text: string, params?: unknown[]) => {
    if (params && params.length > 0) return pglite.query(text, params);
    const results = await runPreparing(text, session, (statement) => pglite.exec(statement));
    return results.at(-1) ?? { rows: [], fields: [] };
  };
  return new Proxy(pglite, { get: (target, property, receiver) => (property === 'query' ? query : Reflect.get(target, property, receiver)) });
}

/** What each instance's one session has prepared (see runPreparing), whichever wrapper asked. */
const preparedIn = sessionSets<PGlite>();
