/**
 * Tenant settings: what a tenant transaction's first query sets, and what it reads back.
 *
 * The query is `BEGIN; DO 'BEGIN EXECUTE ''SET LOCAL …''; … END'; SELECT (the settings stamp)`:
 * it drops to the runtime role (not a superuser, not the tables' owner, no BYPASSRLS), sets the
 * organization the row-level security policies compare `organization_id` with, the actor (for
 * triggers that record who acted) and the statement timeout, and reads the organization's
 * settings stamp (db/stamped-cache.ts).
 *
 * Invariants:
 * - One simple query, one round trip: BEGIN and the settings together.
 * - Every setting is a SET LOCAL statement of its own, run by EXECUTE in one DO block: it ends
 *   with the transaction, so a pooled connection carries nothing to the next one (except
 *   PGlite's session authorization, which the door puts back, see database.ts). Statements, not `set_config()` calls in a SELECT: a
 *   distributed engine (Citus) runs a SELECT that reads a sharded table on the worker that holds
 *   the shard, settings and all, while it carries a SET LOCAL to every connection of the
 *   transaction (issue 28: with set_config beside the stamp's read, the transaction's other
 *   worker connections ran without the organization, as the owner). In an EXECUTE, because Citus
 *   carries a SET LOCAL as the text of the query that ran it: in a simple query of several
 *   statements that is the whole query (BEGIN, the other settings and the stamp's read, which
 *   the workers then refuse); in an EXECUTE it is the one statement. The block costs PostgreSQL
 *   no time we could measure beside plain SET LOCAL statements (pgbench, 0.14 ms a transaction).
 * - The role switch comes first, so every later statement runs as the runtime role, the stamp's
 *   read included (it may read its own organization's stamp).
 * - Citus's `propagate_set_commands = local` comes next: Citus carries the SET LOCAL statements
 *   that follow it to the workers, and only those (not the role switch: a worker connection is
 *   opened as the current user, the owner inside a SECURITY DEFINER function).
 * - The stamp is read naming the organization's id, besides row-level security: the predicate is
 *   what routes the read to one shard.
 * - Values reach the text only as literals (db/sql-text.ts): a simple query takes no parameters.
 *   The query builder's nodes for this statement were ~1% of the service's time; it is text.
 */
import type { Actor } from './actor.ts';
import { joined, type SqlText, settingName, sqlText } from './sql-text.ts';

/** The role every request runs as; created by the first migration. */
export const RUNTIME_ROLE = 'gatehouse_runtime';
/** The setting the row-level security policies compare `organization_id` with. */
export const ORGANIZATION_SETTING = 'app.organization_id';

/**
 * How a transaction becomes the runtime role: the setting to give it (`role`, or
 * `session_authorization` for a superuser, see database.ts), and what puts the connection back
 * after COMMIT or ROLLBACK where the database does not undo it at the transaction's end.
 */
export type RoleSwitch = { setting: 'role' | 'session_authorization'; restoreAfter?: SqlText };

/** What the transaction's statements may rely on: its organization and that organization's settings stamp as the first query read it. */
export type TenantSettings = { organizationId: string; settingsStamp: string };

export type StampRow = { settings_stamp: string | null };

/** The query that opens a tenant transaction for `actor`: BEGIN and the settings; its one row is a StampRow. */
export function openingQuery(actor: Actor, roleSwitch: RoleSwitch, statementTimeoutMs: number): SqlText {
  const settings: [name: string, value: string][] = [
    [roleSwitch.setting, RUNTIME_ROLE],
    // So that Citus carries every later SET LOCAL to each worker connection of the transaction
    // (without it the workers run without the organization); on PostgreSQL a setting no one
    // reads. After the role switch, which must not travel: Citus opens a worker connection as
    // the current user, and a SECURITY DEFINER function's (the webhook claim's) as its owner.
    ['citus.propagate_set_commands', 'local'],
    [ORGANIZATION_SETTING, actor.organizationId],
    ['app.actor', `${actor.kind}:${actor.id}`],
    ['statement_timeout', String(statementTimeoutMs)],
  ];
  const statements = settings.map(([name, value]) => sqlText`SET LOCAL ${settingName(name)} = ${value}`);
  const executed = statements.map((statement) => sqlText`EXECUTE ${statement.text};`);
  const block = sqlText`DO ${joined([sqlText`BEGIN`, ...executed, sqlText`END`], ' ').text}`;
  const stamp = sqlText`SELECT (SELECT stamp::text FROM settings_stamps WHERE organization_id = ${actor.organizationId}) AS settings_stamp`;
  return joined([sqlText`BEGIN`, block, stamp], '; ');
}

/** The settings as the opening query read them: an organization no setting has moved yet has stamp 0. */
export function settingsRead(actor: Actor, rows: readonly StampRow[]): TenantSettings {
  return { organizationId: actor.organizationId, settingsStamp: rows[0]?.settings_stamp ?? '0' };
}
