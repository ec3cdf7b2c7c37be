/**
 * Whether a connection reached PostgreSQL through a pooler (PgBouncer, pgcat, Odyssey, RDS Proxy…)
 * rather than a server process of its own.
 *
 * PostgreSQL tells a new connection its server process's id in BackendKeyData (the key that
 * cancels a query). A pooler cannot give the client a server process's key, since the client
 * will be served by many, so it answers with a key of its own: the process id the client was
 * told then differs from `pg_backend_pid()`, the one really serving it. A TCP proxy (HAProxy in
 * front of a primary, a cloud SQL proxy) passes the server's key through and is not a pooler.
 *
 * A session pooler is detected too, although it would keep prepared statements: what it and a
 * transaction pooler send the client is the same, and guessing wrong the other way breaks
 * requests (see README, "Behind PgBouncer").
 */
import type pg from 'pg';

export async function reachedThroughPooler(client: pg.ClientBase): Promise<boolean> {
  // pg keeps the BackendKeyData's process id on the client; its types do not declare it.
  const told = (client as unknown as { processID?: number | null }).processID;
  if (typeof told !== 'number') return false;
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return rows[0]?.pid !== told;
}
