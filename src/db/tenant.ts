/**
 * The tenant transaction: the only door to tenant data.
 *
 * Each call opens a transaction, drops to the runtime role (not a superuser, not the tables'
 * owner, no BYPASSRLS), and sets the organization with `set_config(…, true)`, which lasts until
 * the transaction ends. Row-level security policies read that setting, so a query inside can only
 * see and write the rows of that one organization, whatever SQL a store writes.
 */
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import { preparedCall, withPrepareHeader } from './prepared-statements.ts';
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

/**
 * A tenant transaction is two queries besides its own: BEGIN with the settings, and the final
 * writes with COMMIT, each one simple query of several statements. On PostgreSQL over the network
 * a round trip is a system call on each side and was the largest single cost in the load
 * benchmark's profile; on PGlite each call costs ~0.2 ms besides its statements.
 * `namedFinalWrites`: the connection prepares what a query's header names once per session (see
 * preparedCall in db/prepared-statements.ts), so the final writes run as `EXECUTE`; without it
 * (a pooler that keeps no session) each is sent as its full text.
 */
export type TenantOptions = { statementTimeoutMs: number; roleSwitch: RoleSwitch; namedFinalWrites: boolean };

export function createWithTenant(owner: Kysely<Schema>, options: TenantOptions): WithTenant {
  const timeout = String(options.statementTimeoutMs);
  const { setting, restoreAfter } = options.roleSwitch;
  // set_config(…, true) is SET LOCAL, and the role switch comes first: select-list items are
  // evaluated in order. The same statement reads the organization's settings stamp, by its id
  // rather than through row-level security, which is bound when the statement is planned, before
  // the settings. The values are quoted literals in one string: a simple query takes no
  // parameters (and the query builder's nodes for this statement were ~1% of the service's time).
  const settingsOf = (actor: Actor): [name: string, value: string][] => [
    [setting, RUNTIME_ROLE],
    [ORGANIZATION_SETTING, actor.organizationId],
    ['app.actor', `${actor.kind}:${actor.id}`],
    ['statement_timeout', timeout],
  ];
  const settingsText = (actor: Actor) =>
    `SELECT ${settingsOf(actor)
      .map(([name, value]) => `set_config(${quotedLiteralText(name)}, ${quotedLiteralText(value)}, true)`)
      .join(', ')}, (SELECT stamp::text FROM settings_stamps WHERE organization_id = ${quotedLiteralText(actor.organizationId)}) AS settings_stamp`;
  const opened = (trx: TenantTransaction, actor: Actor, rows: StampRow[]) =>
    openTransactions.set(trx, { organizationId: actor.organizationId, settingsStamp: rows[0]?.settings_stamp ?? '0', collections: new Map() });
  // Where the database does not put the connection back at the transaction's end, the same query does after COMMIT or ROLLBACK.
  const restore = restoreAfter ? [restoreAfter] : [];
  const finalQuery = (trx: TenantTransaction) => {
    const statements = finalStatements(trx);
    if (!options.namedFinalWrites) return [...statements.map(({ text, json }) => withLiteral(text, json)), 'COMMIT', ...restore].join('; ');
    const calls = statements.map(({ text, json }) => preparedCall(text, quotedLiteralText(json)));
    return withPrepareHeader(
      calls.map(({ name }) => name),
      [...calls.map(({ call }) => call), 'COMMIT', ...restore].join('; '),
    );
  };

  return (actor, fn) =>
    owner.connection().execute(async (connection) => {
      const trx = connection as unknown as TenantTransaction;
      try {
        // The result of the query's last statement (see db/prepared-statements.ts, db/pglite-connection.ts).
        opened(trx, actor, (await sql.raw<StampRow>(`BEGIN; ${settingsText(actor)}`).execute(connection)).rows);
        const result = await fn(trx);
        await sql.raw(finalQuery(trx)).execute(connection);
        return result;
      } catch (error) {
        // Also after a failed final statement, which leaves the transaction open and aborted
        // (after a failed COMMIT there is nothing to roll back, and ROLLBACK only warns).
        await sql.raw(['ROLLBACK', ...restore].join('; ')).execute(connection);
        throw error;
      } finally {
        openTransactions.delete(trx);
      }
    });
}

/**
 * A statement whose one value, `$1`, is JSON text: how final writes are written. With COMMIT it
 * runs by name or with the value as a quoted literal (a simple query takes no parameters, see
 * TenantOptions); sent alone (appendAuditNow, insertEventNow), with a bind parameter.
 */
export type JsonStatement = { text: string; json: string };

/** The statement to send alone, its value a bind parameter. */
export function sentAlone<Row>({ text, json }: JsonStatement): RawBuilder<Row> {
  const [before, after] = aroundValue(text);
  return sql<Row>`${sql.raw(before)}${json}${sql.raw(after)}`;
}

const withLiteral = (text: string, json: string) => aroundValue(text).join(quotedLiteralText(json));

/** A statement's text before and after its value's `$1`. */
function aroundValue(text: string): [string, string] {
  const at = text.indexOf('$1');
  return [text.slice(0, at), text.slice(at + 2)];
}

/**
 * What a transaction collects to write at its end. Just before COMMIT each collection that has
 * items gives its statement, and those statements travel with COMMIT in one query.
 * The audit trail appends there: appending locks the organization's chain head until commit, so a
 * request that appended early made every other request of its organization wait through its
 * remaining round trips and the event-loop turns between them. It also appends after the other
 * final writes (`last`): then the lock lasts the append and COMMIT alone, not the inserts of the
 * screening, its case and its events as well (about 0.6 ms of PostgreSQL's time rather than 1.6
 * for a prescreen that opens a case). Under bench:api at 150/s, a request's wait for the lock
 * fell from 0.48 ms to 0.08 ms on average.
 */
type Collection = { items: unknown[]; last: boolean; statement(items: unknown[]): JsonStatement };

type StampRow = { settings_stamp: string | null };

/**
 * Each open tenant transaction: its organization, the organization's settings stamp as the
 * transaction's first statement read it (0 before anything moved it), and what it collects to
 * write at its end, by the collector's key, in the order first asked for.
 */
const openTransactions = new WeakMap<TenantTransaction, { organizationId: string; settingsStamp: string; collections: Map<symbol, Collection> }>();

/**
 * The transaction's organization and its settings stamp: what the service keeps for the
 * organization under this stamp is current for this transaction (src/db/stamped-cache.ts).
 */
export function settingsStampOf(trx: TenantTransaction): { organizationId: string; settingsStamp: string } {
  const open = openTransactions.get(trx);
  if (!open) throw new Error('settingsStampOf: this transaction has ended or was not opened by withTenant');
  return { organizationId: open.organizationId, settingsStamp: open.settingsStamp };
}

/**
 * The transaction's items under `key`, to push onto; `statement` writes them just before COMMIT,
 * in the order the collections were first asked for, except that a `last` one follows the rest.
 */
export function collectAtCommit<T>(
  trx: TenantTransaction,
  key: symbol,
  statement: (items: T[]) => JsonStatement,
  { last = false }: { last?: boolean } = {},
): T[] {
  const collections = openTransactions.get(trx)?.collections;
  if (!collections) throw new Error('collectAtCommit: this transaction has ended or was not opened by withTenant');
  let collection = collections.get(key);
  if (!collection) {
    collection = { items: [], last, statement: statement as Collection['statement'] };
    collections.set(key, collection);
  }
  return collection.items as T[];
}

function finalStatements(trx: TenantTransaction): JsonStatement[] {
  const collections = [...(openTransactions.get(trx)?.collections.values() ?? [])].filter(({ items }) => items.length > 0);
  return [...collections.filter((c) => !c.last), ...collections.filter((c) => c.last)].map(({ items, statement }) => statement(items));
}

/** A string as an SQL literal, whatever standard_conforming_strings says: E'…' with backslashes and quotes doubled. */
function quotedLiteralText(text: string): string {
  if (text.includes('\0')) throw new Error('an SQL literal cannot contain a NUL character');
  return `E'${text.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
}
