/**
 * What the scheduled refresh remembers between checks (0041_list_source_checks.sql), read and
 * written as the database owner like the lists themselves: each source's last attempt and last
 * success, its failures in a row, the validators of the files it served; each active list's last
 * confirmation; the refresh lease; and the alerts already sent, so that `lists.stale`,
 * `lists.update_failed` and `lists.recovered` go out once per run of trouble, whichever process
 * notices first (each transition is a guarded UPDATE: only the one that changes the row sends).
 */
import { type Kysely, sql } from 'kysely';
import type { Schema } from '../db/schema.ts';
import { recordEventForEveryOrganization } from '../events/outbox.ts';
import type { ListCode } from '../screening/model.ts';
import type { FileValidators } from './list-tables.ts';

export type SourceCheck = {
  source: string;
  lastAttemptAt: Date | null;
  lastSuccessAt: Date | null;
  consecutiveFailures: number;
  lastError: string | null;
  validators: Record<string, FileValidators>;
  versionIds: string[];
  failingSince: Date | null;
};

export type ListConfirmation = { list: ListCode; versionId: string; confirmedAt: Date; staleSince: Date | null };

export type FreshnessAlert =
  | { type: 'lists.stale'; list: ListCode; data: Record<string, unknown> }
  | { type: 'lists.update_failed'; source: string; data: Record<string, unknown> }
  | { type: 'lists.recovered'; list?: ListCode; source?: string; data: Record<string, unknown> };

export type SourceCheckStore = {
  checks(): Promise<SourceCheck[]>;
  confirmations(): Promise<ListConfirmation[]>;
  /** Marks the lists confirmed current now (an unchanged check, or an import). */
  confirm(lists: ListCode[]): Promise<void>;
  recordSuccess(source: string, result: { validators: Record<string, FileValidators>; versionIds: string[] }): Promise<void>;
  recordFailure(source: string, error: string): Promise<void>;
  /** Takes or renews the lease for `seconds`; false while another holder's is unexpired. */
  acquireLease(holder: string, seconds: number): Promise<boolean>;
  releaseLease(holder: string): Promise<void>;
  /** Records the alert and sends its event if this call is the one that changed the state; true then. */
  raise(alert: FreshnessAlert): Promise<boolean>;
};

const LEASE = 'list-refresh';

export function createSourceCheckStore(owner: Kysely<Schema>): SourceCheckStore {
  return {
    checks: async () =>
      (await owner.selectFrom('list_source_checks').selectAll().orderBy('source').execute()).map((row) => ({
        source: row.source,
        lastAttemptAt: row.last_attempt_at && new Date(row.last_attempt_at),
        lastSuccessAt: row.last_success_at && new Date(row.last_success_at),
        consecutiveFailures: row.consecutive_failures,
        lastError: row.last_error,
        validators: row.validators,
        versionIds: row.version_ids,
        failingSince: row.failing_since && new Date(row.failing_since),
      })),
    confirmations: async () =>
      (await owner.selectFrom('list_heads').select(['list', 'version_id', 'confirmed_at', 'stale_since']).orderBy('list').execute()).map((row) => ({
        list: row.list,
        versionId: row.version_id,
        confirmedAt: new Date(row.confirmed_at),
        staleSince: row.stale_since && new Date(row.stale_since),
      })),
    confirm: async (lists) => {
      if (lists.length > 0) await owner.updateTable('list_heads').set({ confirmed_at: sql`now()` }).where('list', 'in', lists).execute();
    },
    recordSuccess: async (source, { validators, versionIds }) => {
      const values = {
        last_attempt_at: sql`now()`,
        last_success_at: sql`now()`,
        consecutive_failures: 0,
        last_error: null,
        validators: JSON.stringify(validators),
        version_ids: JSON.stringify(versionIds),
      };
      // The update takes the inserted row's values (`excluded`): Citus refuses now() in DO UPDATE SET.
      await owner
        .insertInto('list_source_checks')
        .values({ source, ...values } as never)
        .onConflict((oc) =>
          oc.column('source').doUpdateSet(Object.fromEntries(Object.keys(values).map((column) => [column, sql.ref(`excluded.${column}`)])) as never),
        )
        .execute();
    },
    recordFailure: async (source, error) => {
      await owner
        .insertInto('list_source_checks')
        .values({ source, last_attempt_at: sql`now()`, consecutive_failures: 1, last_error: error } as never)
        .onConflict((oc) =>
          oc.column('source').doUpdateSet({
            last_attempt_at: sql.ref('excluded.last_attempt_at'),
            consecutive_failures: sql`list_source_checks.consecutive_failures + 1`,
            last_error: error,
          } as never),
        )
        .execute();
    },
    // Taking over an expired lease or renewing one's own, then creating it if there is none: two
    // statements, because Citus refuses now() in an ON CONFLICT's WHERE. The UPDATE checks its
    // WHERE again on the row it locks, so of two processes only one takes an expired lease.
    acquireLease: async (holder, seconds) => {
      const until = sql`now() + make_interval(secs => ${seconds})`;
      const renewed = await owner
        .updateTable('list_refresh_lease')
        .set({ holder, expires_at: until as never })
        .where('name', '=', LEASE)
        .where((eb) => eb.or([eb('expires_at', '<', sql<Date>`now()`), eb('holder', '=', holder)]))
        .returning('holder')
        .execute();
      if (renewed.length === 1) return true;
      const created = await owner
        .insertInto('list_refresh_lease')
        .values({ name: LEASE, holder, expires_at: until as never })
        .onConflict((oc) => oc.column('name').doNothing())
        .returning('holder')
        .execute();
      return created.length === 1;
    },
    releaseLease: async (holder) => {
      await owner.deleteFrom('list_refresh_lease').where('name', '=', LEASE).where('holder', '=', holder).execute();
    },
    raise: (alert) =>
      owner.transaction().execute(async (trx) => {
        const changed = await transition(trx, alert);
        if (changed) await recordEventForEveryOrganization(trx, { type: alert.type, data: alert.data });
        return changed;
      }),
  };
}

/** The guarded UPDATE behind each alert: it changes a row only on the first notice of a transition. */
async function transition(trx: Kysely<Schema>, alert: FreshnessAlert): Promise<boolean> {
  if (alert.type === 'lists.stale') {
    const rows = await trx
      .updateTable('list_heads')
      .set({ stale_since: sql`now()` })
      .where('list', '=', alert.list)
      .where('stale_since', 'is', null)
      .returning('list')
      .execute();
    return rows.length > 0;
  }
  if (alert.type === 'lists.update_failed') {
    const rows = await trx
      .updateTable('list_source_checks')
      .set({ failing_since: sql`now()` })
      .where('source', '=', alert.source)
      .where('failing_since', 'is', null)
      .returning('source')
      .execute();
    return rows.length > 0;
  }
  const rows = alert.list
    ? await trx
        .updateTable('list_heads')
        .set({ stale_since: null })
        .where('list', '=', alert.list)
        .where('stale_since', 'is not', null)
        .returning('list')
        .execute()
    : await trx
        .updateTable('list_source_checks')
        .set({ failing_since: null })
        .where('source', '=', alert.source as string)
        .where('failing_since', 'is not', null)
        .returning('source')
        .execute();
  return rows.length > 0;
}
