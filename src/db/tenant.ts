/**
 * The tenant transaction: the only door to tenant data, and the one place every request goes through.
 *
 * Each call takes one connection, opens a transaction on it scoped to one organization, runs `fn`
 * with it and commits. Row-level security policies read the organization setting, so a query
 * inside can only see and write the rows of that one organization, whatever SQL a store writes.
 *
 * On the wire a transaction is its own statements plus two queries, one round trip each:
 *   1. BEGIN with the tenant settings (db/tenant-settings.ts);
 *   2. what `fn` runs, through Kysely, each parameterized statement prepared by name once per
 *      session (db/prepared-statements.ts);
 *   3. the writes held for COMMIT, run by name, with COMMIT (db/write-at-commit.ts).
 * On PostgreSQL over the network a round trip is a system call on each side and was the largest
 * single cost in the load benchmark's profile; on PGlite each call costs ~0.2 ms besides its
 * statements. Kysely's own transaction() sends BEGIN and COMMIT alone, so the door holds a
 * connection and sends them itself, and stores get Kysely's query builder on that connection.
 *
 * Its named operations, each with its invariants where it is defined:
 * - tenant settings: `tenantSettingsOf(trx)`, what the opening query set and read (tenant-settings.ts);
 * - write at commit: `collectAtCommit(trx, …)` and `rowsAtCommit(trx, table)` (write-at-commit.ts,
 *   rows-at-commit.ts), and their counterpart `writeNow(trx, statement)`;
 * - prepared statement: automatic for what stores send; the writes at commit run as `EXECUTE`
 *   (prepared-statements.ts). SQL text is made only in db/sql-text.ts.
 */
import type { Kysely } from 'kysely';
import type { Actor } from './actor.ts';
import { type JsonStatement, sentAlone, simpleQueryOf } from './prepared-statements.ts';
import type { Schema } from './schema.ts';
import { joined, runText, sqlText } from './sql-text.ts';
import { namingOrganization } from './tenant-predicate.ts';
import { openingQuery, type RoleSwitch, type StampRow, settingsRead, type TenantSettings } from './tenant-settings.ts';
import { type CollectOptions, WritesAtCommit } from './write-at-commit.ts';

// The door's callers name who acts together with the door itself (Actor, TenantTransaction, WithTenant).
export type { Actor } from './actor.ts';

declare const tenantScoped: unique symbol;
/**
 * A transaction already scoped to one organization: Kysely's query builder on the connection the
 * door holds, inside the BEGIN the door sent. Stores build and run queries on it; beginning,
 * committing, nesting or leaving the transaction (transaction(), connection(), withoutPlugins()…)
 * is the door's alone, so those are not part of the type. The brand means only `withTenant` can
 * make one, so a store cannot be handed an unscoped connection.
 */
export type TenantTransaction = TenantQueries & { readonly [tenantScoped]: true };
type TenantQueries = Pick<
  Kysely<Schema>,
  | 'selectFrom'
  | 'selectNoFrom'
  | 'insertInto'
  | 'replaceInto'
  | 'updateTable'
  | 'deleteFrom'
  | 'mergeInto'
  | 'with'
  | 'withRecursive'
  | 'case'
  | 'fn'
  | 'dynamic'
  | 'getExecutor'
>;

export type WithTenant = <T>(actor: Actor, fn: (trx: TenantTransaction) => Promise<T>) => Promise<T>;

/**
 * `namedFinalWrites`: the connection prepares what a query's header names once per session, so
 * the writes at commit run as `EXECUTE`; without it (a pooler that keeps no session) each is sent
 * as its full text.
 */
export type TenantOptions = { statementTimeoutMs: number; roleSwitch: RoleSwitch; namedFinalWrites: boolean };

export function createWithTenant(owner: Kysely<Schema>, options: TenantOptions): WithTenant {
  const { statementTimeoutMs, roleSwitch, namedFinalWrites } = options;
  // Where the database does not put the connection back at the transaction's end, the same query does after COMMIT or ROLLBACK.
  const restore = roleSwitch.restoreAfter ? [roleSwitch.restoreAfter] : [];
  const commit = [sqlText`COMMIT`, ...restore];
  const rollback = joined([sqlText`ROLLBACK`, ...restore], '; ');

  return (actor, fn) =>
    owner.connection().execute(async (connection) => {
      const writes = new WritesAtCommit();
      // The brand is given here and nowhere else; the guard refuses reading back what waits for COMMIT.
      // And every query it builds names the organization (the second wall, db/tenant-predicate.ts).
      const queries: TenantQueries = connection.withPlugin(writes.guard).withPlugin(namingOrganization(actor.organizationId));
      const trx = queries as TenantTransaction;
      try {
        // A simple query answers its last statement's result (see db/prepared-statements.ts, db/pglite-connection.ts).
        const { rows } = await runText<StampRow>(openingQuery(actor, roleSwitch, statementTimeoutMs), connection);
        openTransactions.set(trx, { settings: settingsRead(actor, rows), writes });
        const result = await fn(trx);
        await runText(simpleQueryOf(writes.statements(), commit, namedFinalWrites), connection);
        return result;
      } catch (error) {
        // Also after a failed final query, which leaves the transaction open and aborted
        // (after a failed COMMIT there is nothing to roll back, and ROLLBACK only warns).
        await runText(rollback, connection);
        throw error;
      } finally {
        openTransactions.delete(trx);
      }
    });
}

/** Each open tenant transaction: its settings as its opening query read them, and its writes at commit. */
const openTransactions = new WeakMap<TenantTransaction, { settings: TenantSettings; writes: WritesAtCommit }>();

function openOf(trx: TenantTransaction, operation: string) {
  const open = openTransactions.get(trx);
  if (!open) throw new Error(`${operation}: this transaction has ended or was not opened by withTenant`);
  return open;
}

/**
 * Tenant settings: the transaction's organization and its settings stamp. What the service keeps
 * for the organization under this stamp is current for this transaction (db/stamped-cache.ts).
 */
export function tenantSettingsOf(trx: TenantTransaction): TenantSettings {
  return openOf(trx, 'tenantSettingsOf').settings;
}

/**
 * Write at commit: the transaction's items under `key`, to push onto; `statement` writes them with
 * COMMIT, in the order the collections were first asked for, a `last` one after the rest. While
 * items wait, statements naming `tables` are refused (see db/write-at-commit.ts).
 */
export function collectAtCommit<T>(trx: TenantTransaction, key: symbol, statement: (items: T[]) => JsonStatement, options?: CollectOptions): T[] {
  return openOf(trx, 'collectAtCommit').writes.collect(key, statement, options);
}

/**
 * Write now: sends the statement alone, its value a bind parameter (prepared by name once per
 * session), and answers its rows: for a write the transaction must reference or read back
 * before COMMIT, at the cost of a round trip.
 */
export async function writeNow<Row>(trx: TenantTransaction, statement: JsonStatement): Promise<Row[]> {
  return (await sentAlone<Row>(statement).execute(trx)).rows;
}
