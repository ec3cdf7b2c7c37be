/**
 * Monitoring runs in the tenant's transaction.
 */
import { fromJson } from '../../db/json.ts';
import type { Schema } from '../../db/schema.ts';
import type { TenantTransaction } from '../../db/tenant.ts';

export type RunStatus = 'queued' | 'running' | 'completed' | 'failed';
/** The source being worked (by kind, so a change in the order features load cannot skip one) and the last subject done in it. */
export type RunCursor = { source: string | null; after: string | null };
export type RunCounts = {
  subjects: number;
  screened: number;
  potential_matches: number;
  cases_opened: number;
  cases_reopened: number;
  /** Stored ownership determinations the version touched and re-evaluated, and those whose verdict changed. */
  graphs_examined: number;
  graphs_changed: number;
};

declare module '../../db/schema.ts' {
  interface Schema {
    monitoring_runs: {
      organization_id: string;
      id: string;
      list: string;
      list_version_id: string;
      previous_version_id: string;
      changed_entries: number;
      status: RunStatus;
      cursor: unknown;
      counts: unknown;
      lease_until: Date | string | null;
      audit_hash: string | null;
      error: string | null;
      created_at: Date | string;
      started_at: Date | string | null;
      finished_at: Date | string | null;
    };
  }
}

type Dates = 'lease_until' | 'created_at' | 'started_at' | 'finished_at';
export type RunRow = Omit<Schema['monitoring_runs'], 'organization_id' | 'cursor' | 'counts' | Dates> & {
  cursor: RunCursor;
  counts: RunCounts;
  lease_until: Date | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
};

export const NO_COUNTS: RunCounts = {
  subjects: 0,
  screened: 0,
  potential_matches: 0,
  cases_opened: 0,
  cases_reopened: 0,
  graphs_examined: 0,
  graphs_changed: 0,
};

const COLUMNS = [
  'id',
  'list',
  'list_version_id',
  'previous_version_id',
  'changed_entries',
  'status',
  'cursor',
  'counts',
  'lease_until',
  'audit_hash',
  'error',
  'created_at',
  'started_at',
  'finished_at',
] as const;
const date = (value: unknown) => (value === null || value === undefined ? null : new Date(value as string));

function toRun(row: Record<(typeof COLUMNS)[number], unknown>): RunRow {
  return {
    ...(row as unknown as RunRow),
    cursor: fromJson<RunCursor>(row.cursor),
    // A run counted before determinations were followed has no graph counts: none were examined.
    counts: { ...NO_COUNTS, ...fromJson<Partial<RunCounts>>(row.counts) },
    lease_until: date(row.lease_until),
    created_at: date(row.created_at) as Date,
    started_at: date(row.started_at),
    finished_at: date(row.finished_at),
  };
}

/** What a run is queued with: its version, and not begun. */
export type NewRun = Pick<RunRow, 'list' | 'list_version_id' | 'previous_version_id' | 'changed_entries' | 'created_at'>;

/** A queued run's columns, but its organization and id: not begun. */
export const queuedRun = (run: NewRun) => ({ ...run, status: 'queued' as const, cursor: { source: null, after: null } as RunCursor, counts: NO_COUNTS });

/** Queues the run for a version unless this organization has one already (another process may have queued it). */
export async function queueRun(trx: TenantTransaction, organizationId: string, run: NewRun & Pick<RunRow, 'id'>): Promise<boolean> {
  const { cursor, counts, ...columns } = queuedRun(run);
  const inserted = await trx
    .insertInto('monitoring_runs')
    .values({ ...columns, id: run.id, organization_id: organizationId, cursor: JSON.stringify(cursor), counts: JSON.stringify(counts) })
    .onConflict((conflict) => conflict.columns(['organization_id', 'list_version_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The oldest run that is waiting, or whose worker's lease ran out, locked for the caller (others skip it). */
export async function claimableRun(trx: TenantTransaction, now: Date): Promise<RunRow | undefined> {
  const row = await trx
    .selectFrom('monitoring_runs')
    .select(COLUMNS)
    .where('status', 'in', ['queued', 'running'])
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .orderBy('created_at')
    .limit(1)
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  return row && toRun(row);
}

export async function findRun(trx: TenantTransaction, id: string, options: { forUpdate?: boolean } = {}): Promise<RunRow | undefined> {
  let query = trx.selectFrom('monitoring_runs').select(COLUMNS).where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && toRun(row);
}

export type RunChange = Partial<Pick<RunRow, 'status' | 'cursor' | 'counts' | 'lease_until' | 'audit_hash' | 'error' | 'started_at' | 'finished_at'>>;

export async function updateRun(trx: TenantTransaction, id: string, change: RunChange): Promise<void> {
  const { cursor, counts, ...plain } = change;
  await trx
    .updateTable('monitoring_runs')
    .set({ ...plain, ...(cursor && { cursor: JSON.stringify(cursor) }), ...(counts && { counts: JSON.stringify(counts) }) })
    .where('id', '=', id)
    .execute();
}

/** Newest first. */
export async function listRuns(trx: TenantTransaction, beforeId: string | undefined, limit: number): Promise<RunRow[]> {
  let query = trx.selectFrom('monitoring_runs').select(COLUMNS);
  if (beforeId) query = query.where('id', '<', beforeId);
  const rows = await query.orderBy('id', 'desc').limit(limit).execute();
  return rows.map(toRun);
}
