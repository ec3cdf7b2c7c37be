import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Connection } from './connection.ts';
import { reachedThroughPooler } from './pooler.ts';
import { preparingPool } from './prepared-statements.ts';
import type { Schema } from './schema.ts';

/**
 * `prepareStatements` (see prepared-statements.ts): unset, statements are prepared unless the
 * connection reached PostgreSQL through a pooler (pooler.ts), whose server connections are not
 * the client's to keep statements on.
 */
export type PostgresOptions = { url: string; poolSize: number; prepareStatements?: boolean | undefined };

export async function openPostgresConnection({ url, poolSize, prepareStatements }: PostgresOptions): Promise<Connection> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    application_name: 'gatehouse',
  });
  // An idle client that loses its server emits 'error' on the pool; without a listener that
  // would crash the process. The next checkout simply gets a new connection.
  pool.on('error', () => {});
  // Fail at startup, with the driver's message, if the server cannot be reached.
  const probe = await pool.connect();
  let prepares: boolean;
  try {
    prepares = prepareStatements ?? !(await reachedThroughPooler(probe));
  } finally {
    probe.release();
  }

  return {
    backend: 'postgres',
    preparesNamedStatements: prepares,
    kysely: new Kysely<Schema>({ dialect: new PostgresDialect({ pool: prepares ? (preparingPool(pool) as unknown as pg.Pool) : pool }) }),
    withSession: async (fn) => {
      const client = await pool.connect();
      try {
        return await fn({
          exec: async (script) => {
            await client.query(script);
          },
          query: async <Row>(text: string, params?: unknown[]) => (await client.query(text, params)).rows as Row[],
        });
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
