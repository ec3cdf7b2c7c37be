/**
 * The tenant transaction: the only door to tenant data.
 *
 * Each call opens a transaction, drops to the runtime role (not a superuser, not the tables'
 * owner, no BYPASSRLS), and sets the organization with `set_config(…, true)`, which lasts until
 * the transaction ends. Row-level security policies read that setting, so a query inside can only
 * see and write the rows of that one organization, whatever SQL a store writes.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Schema } from './schema.ts';

/** The role every request runs as; created by the first migration. */
export const RUNTIME_ROLE = 'gatehouse_runtime';
/** The setting the row-level security policies compare `organization_id` with. */
export const ORGANIZATION_SETTING = 'app.organization_id';

/** Who is acting. The identity issue adds its own kinds; the organization is what RLS needs. */
export type Actor = {
  organizationId: string;
  kind: 'api_key' | 'user' | 'system';
  /** The key id, the JWT subject, or the name of a system job. */
  id: string;
};

declare const tenantScoped: unique symbol;
/**
 * A transaction already scoped to one organization. Stores take it as their first argument; the
 * brand means only `withTenant` can make one, so a store cannot be handed an unscoped connection.
 */
export type TenantTransaction = Transaction<Schema> & { readonly [tenantScoped]: true };

export type WithTenant = <T>(actor: Actor, fn: (trx: TenantTransaction) => Promise<T>) => Promise<T>;

/**
 * How a transaction becomes the runtime role: the setting to give it (`role`, or
 * `session_authorization` for a superuser, see database.ts), and how the connection is put back
 * afterwards where the database does not undo it at the transaction's end.
 */
export type RoleSwitch = { setting: 'role' | 'session_authorization'; restoreAfter?: string };

export type TenantOptions = { statementTimeoutMs: number; roleSwitch: RoleSwitch };

export function createWithTenant(owner: Kysely<Schema>, options: TenantOptions): WithTenant {
  const timeout = String(options.statementTimeoutMs);
  const { setting, restoreAfter } = options.roleSwitch;
  // One connection is held for the transaction and the restore, so nothing runs in between.
  return (actor, fn) =>
    owner.connection().execute(async (connection) => {
      try {
        return await connection.transaction().execute(async (trx) => {
          // set_config(…, true) is SET LOCAL, and the role switch comes first: one round trip
          // instead of two for what every request pays. Select-list items are evaluated in order.
          await sql`SELECT set_config(${setting}, ${RUNTIME_ROLE}, true),
                           set_config(${ORGANIZATION_SETTING}, ${actor.organizationId}, true),
                           set_config('app.actor', ${`${actor.kind}:${actor.id}`}, true),
                           set_config('statement_timeout', ${timeout}, true)`.execute(trx);
          return fn(trx as TenantTransaction);
        });
      } finally {
        if (restoreAfter) await sql.raw(restoreAfter).execute(connection);
      }
    });
}
