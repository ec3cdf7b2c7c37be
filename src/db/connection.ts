import type { Kysely } from 'kysely';
import type { Schema } from './schema.ts';

export type Backend = 'pglite' | 'postgres';

/** One session on the database, for work that needs the same backend throughout (locks, scripts). */
export type Session = {
  /** Runs a script of one or more statements without parameters (migrations). */
  exec(script: string): Promise<void>;
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<Row[]>;
};

/**
 * A connection to the database as its owner, with the same shape for the embedded database and
 * PostgreSQL. It stays inside `src/db/`: the rest of the code reaches tenant data only through
 * `Database.withTenant`.
 */
export type Connection = {
  backend: Backend;
  kysely: Kysely<Schema>;
  /** Whether each session prepares the statements a simple query names in its header (see preparedCall in prepared-statements.ts). */
  preparesNamedStatements: boolean;
  withSession<T>(fn: (session: Session) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};
