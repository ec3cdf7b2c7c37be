/**
 * Cases and their history in the tenant's transaction.
 */
import { sql } from 'kysely';
import { fromJson } from '../../db/json.ts';
import { rowsAtCommit } from '../../db/rows-at-commit.ts';
import type { Schema } from '../../db/schema.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import type { CaseStatus, MatchDecision, PendingDecision } from './case-record.ts';
import type { Priority } from './rules.ts';

declare module '../../db/schema.ts' {
  interface Schema {
    cases: {
      organization_id: string;
      id: string;
      /** The case's subject: a screening, or a stored ownership determination (exactly one is set). */
      screening_id: string | null;
      ownership_check_id: string | null;
      source: string;
      status: CaseStatus;
      priority: Priority;
      priority_rank: number;
      priority_reasons: unknown;
      score: number;
      lists: unknown;
      assignee: string | null;
      sla_due_at: Date | string;
      rules_version: number;
      pending_decision: unknown;
      match_decisions: unknown;
      created_at: Date | string;
      updated_at: Date | string;
      closed_at: Date | string | null;
    };
    case_events: {
      organization_id: string;
      case_id: string;
      seq: number;
      action: string;
      actor: string;
      from_status: string | null;
      to_status: string | null;
      disposition: string | null;
      reason: string | null;
      details: unknown;
      request_id: string | null;
      created_at: Date | string;
    };
  }
}

type CaseTable = Schema['cases'];
type JsonOrDate = 'priority_reasons' | 'lists' | 'pending_decision' | 'match_decisions' | 'sla_due_at' | 'created_at' | 'updated_at' | 'closed_at';

/** A case as the service works with it: JSON columns parsed, times as dates. */
export type CaseRow = Omit<CaseTable, 'organization_id' | JsonOrDate> & {
  priority_reasons: string[];
  lists: string[];
  pending_decision: PendingDecision | null;
  match_decisions: Record<string, MatchDecision>;
  sla_due_at: Date;
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
};

export type CaseEvent = Omit<Schema['case_events'], 'organization_id' | 'case_id' | 'details' | 'created_at'> & {
  details: Record<string, unknown>;
  created_at: Date;
};

const CASE_COLUMNS = [
  'id',
  'screening_id',
  'ownership_check_id',
  'source',
  'status',
  'priority',
  'priority_rank',
  'priority_reasons',
  'score',
  'lists',
  'assignee',
  'sla_due_at',
  'rules_version',
  'pending_decision',
  'match_decisions',
  'created_at',
  'updated_at',
  'closed_at',
] as const;

type RawCase = Record<(typeof CASE_COLUMNS)[number], unknown>;

function toCase(row: RawCase): CaseRow {
  return {
    ...(row as unknown as CaseRow),
    priority_reasons: fromJson<string[]>(row.priority_reasons),
    lists: fromJson<string[]>(row.lists),
    pending_decision: fromJson<PendingDecision | null>(row.pending_decision),
    match_decisions: fromJson<Record<string, MatchDecision>>(row.match_decisions),
    sla_due_at: new Date(row.sla_due_at as string),
    created_at: new Date(row.created_at as string),
    updated_at: new Date(row.updated_at as string),
    closed_at: row.closed_at === null ? null : new Date(row.closed_at as string),
  };
}

/**
 * New cases, each with the first entry of its history (seq 1), written with the transaction's
 * last statements (see db/rows-at-commit.ts): the cases, then their events. The screenings
 * they reference are written by the statement before (recorded first, by the same pipeline).
 */
export function recordOpenedCases(trx: TenantTransaction, organizationId: string, opened: readonly { row: CaseRow; event: NewCaseEvent }[]): void {
  // Tables go in the order first given rows: the cases, then their events.
  const cases = rowsAtCommit(trx, 'cases');
  const events = rowsAtCommit(trx, 'case_events');
  for (const { row, event } of opened) {
    cases.push({ ...row, organization_id: organizationId });
    events.push({ organization_id: organizationId, case_id: row.id, seq: 1, ...event });
  }
}

/** The case, locked for this transaction when `forUpdate`, so two reviewers take turns on it. */
export async function findCase(trx: TenantTransaction, id: string, options: { forUpdate?: boolean } = {}): Promise<CaseRow | undefined> {
  let query = trx.selectFrom('cases').select(CASE_COLUMNS).where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && toCase(row);
}

export async function caseStatusOf(trx: TenantTransaction, id: string): Promise<CaseStatus | null> {
  const row = await trx.selectFrom('cases').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status ?? null;
}

export type CaseChanges = Partial<
  Pick<
    CaseRow,
    | 'screening_id'
    | 'ownership_check_id'
    | 'status'
    | 'priority'
    | 'priority_rank'
    | 'priority_reasons'
    | 'score'
    | 'lists'
    | 'sla_due_at'
    | 'rules_version'
    | 'assignee'
    | 'pending_decision'
    | 'match_decisions'
    | 'closed_at'
  >
> & { updated_at: Date };

export async function updateCase(trx: TenantTransaction, id: string, changes: CaseChanges): Promise<void> {
  const { pending_decision: pending, match_decisions: decisions, priority_reasons: reasons, lists, ...plain } = changes;
  await trx
    .updateTable('cases')
    .set({
      ...plain,
      ...(reasons !== undefined && { priority_reasons: JSON.stringify(reasons) }),
      ...(lists !== undefined && { lists: JSON.stringify(lists) }),
      ...(pending !== undefined && { pending_decision: pending && JSON.stringify(pending) }),
      ...(decisions !== undefined && { match_decisions: JSON.stringify(decisions) }),
    })
    .where('id', '=', id)
    .execute();
}

export type NewCaseEvent = Omit<CaseEvent, 'seq' | 'created_at'> & { created_at: Date };

/**
 * Appends to the case's history; the caller holds the case's row lock, so numbering cannot race.
 * One INSERT … SELECT from the case and its events, not a subquery in VALUES, which Citus
 * refuses; and the organization taken from the case's row, so that Citus runs the whole statement
 * on the shard that holds the case (given as a value, Citus would run the SELECT, then COPY the
 * row in, which PostgreSQL refuses under row-level security).
 */
export async function appendCaseEvent(trx: TenantTransaction, organizationId: string, caseId: string, event: NewCaseEvent): Promise<void> {
  const row = { ...event, details: JSON.stringify(event.details) };
  const columns = Object.keys(row) as (keyof typeof row)[];
  await trx
    .insertInto('case_events')
    .columns(['organization_id', 'case_id', 'seq', ...columns])
    .expression((eb) =>
      eb
        .selectFrom('cases as c')
        .leftJoin('case_events as e', (join) => join.onRef('e.organization_id', '=', 'c.organization_id').onRef('e.case_id', '=', 'c.id'))
        .select(['c.organization_id', 'c.id', sql<number>`coalesce(max(e.seq), 0) + 1`.as('seq'), ...columns.map((column) => eb.val(row[column]).as(column))])
        .where('c.organization_id', '=', organizationId)
        .where('c.id', '=', caseId)
        .groupBy(['c.organization_id', 'c.id']),
    )
    .execute();
}

export async function caseEvents(trx: TenantTransaction, caseId: string): Promise<CaseEvent[]> {
  const rows = await trx
    .selectFrom('case_events')
    .select(['seq', 'action', 'actor', 'from_status', 'to_status', 'disposition', 'reason', 'details', 'request_id', 'created_at'])
    .where('case_id', '=', caseId)
    .orderBy('seq')
    .execute();
  return rows.map((row) => ({ ...row, details: fromJson<Record<string, unknown>>(row.details), created_at: new Date(row.created_at) }));
}

export type QueueFilters = {
  statuses: CaseStatus[];
  assignee?: string;
  minScore?: number;
  list?: string;
  source?: string;
  createdAfter?: Date;
  createdBefore?: Date;
  /** true: only cases past their SLA; false: only cases within it. */
  overdue?: boolean;
  now: Date;
};

/** Where the last page ended, in the queue's order: priority (high first), then age, then id. */
export type QueuePosition = { rank: number; createdAt: Date; id: string };

function filtered(trx: TenantTransaction, filters: QueueFilters) {
  let query = trx.selectFrom('cases').where('status', 'in', filters.statuses);
  if (filters.assignee !== undefined) query = query.where('assignee', '=', filters.assignee);
  if (filters.minScore !== undefined) query = query.where('score', '>=', filters.minScore);
  if (filters.list !== undefined) query = query.where(sql<boolean>`lists @> ${JSON.stringify([filters.list])}::jsonb`);
  if (filters.source !== undefined) query = query.where('source', '=', filters.source);
  if (filters.createdAfter) query = query.where('created_at', '>', filters.createdAfter);
  if (filters.createdBefore) query = query.where('created_at', '<', filters.createdBefore);
  if (filters.overdue !== undefined) query = query.where('sla_due_at', filters.overdue ? '<' : '>=', filters.now);
  return query;
}

export async function queuePage(trx: TenantTransaction, filters: QueueFilters, after: QueuePosition | undefined, limit: number): Promise<CaseRow[]> {
  let query = filtered(trx, filters).select(CASE_COLUMNS);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('priority_rank', '<', after.rank),
        eb.and([eb('priority_rank', '=', after.rank), eb('created_at', '>', after.createdAt)]),
        eb.and([eb('priority_rank', '=', after.rank), eb('created_at', '=', after.createdAt), eb('id', '>', after.id)]),
      ]),
    );
  }
  const rows = await query.orderBy('priority_rank', 'desc').orderBy('created_at').orderBy('id').limit(limit).execute();
  return rows.map(toCase);
}

export async function queueTotals(trx: TenantTransaction, filters: QueueFilters): Promise<Record<string, number>> {
  const rows = await filtered(trx, filters)
    .select(['status', sql<number>`count(*)::int`.as('count')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
}
