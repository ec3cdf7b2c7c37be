/**
 * Tenant settings: what a tenant transaction's first query sets, and what it reads back.
 *
 * The query is `BEGIN; SELECT set_config(…), …, (the settings stamp)`: it drops to the runtime role
 * (not a superuser, not the tables' owner, no BYPASSRLS), sets the organization the row-level
 * security policies compare `organization_id` with, the actor (for triggers that record who
 * acted) and the statement timeout, and reads the organization's settings stamp
 * (db/stamped-cache.ts).
 *
 * Invariants:
 * - One simple query, one round trip: BEGIN and the settings together.
 * - Every setting is SET LOCAL (`set_config(…, true)`): it ends with the transaction, so a pooled
 *   connection carries nothing to the next one (except PGlite's session authorization, which the
 *   door puts back, see database.ts).
 * - The role switch comes first: select-list items are evaluated in order, so every later item,
 *   and every statement after, runs as the runtime role.
 * - The stamp is read by the organization's id, not through row-level security, which is bound
 *   when the statement is planned, before these settings exist.
 * - Values reach the text only as literals (db/sql-text.ts): a simple query takes no parameters.
 *   The query builder's nodes for this statement were ~1% of the service's time; it is text.
 */
import type { Actor } from './actor.ts';
import { joined, type SqlText, sqlText } from './sql-text.ts';

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
    [ORGANIZATION_SETTING, actor.organizationId],
    ['app.actor', `${actor.kind}:${actor.id}`],
    ['statement_timeout', String(statementTimeoutMs)],
  ];
  const calls = joined(
    settings.map(([name, value]) => sqlText`set_config(${name}, ${value}, true)`),
    ', ',
  );
  return sqlText`BEGIN; SELECT ${calls}, (SELECT stamp::text FROM settings_stamps WHERE organization_id = ${actor.organizationId}) AS settings_stamp`;
}

/** The settings as the opening query read them: an organization no setting has moved yet has stamp 0. */
export function settingsRead(actor: Actor, rows: readonly StampRow[]): TenantSettings {
  return { organizationId: actor.organizationId, settingsStamp: rows[0]?.settings_stamp ?? '0' };
}
