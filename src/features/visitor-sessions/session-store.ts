/**
 * Visitor sessions in the tenant's transaction.
 */
import { sql } from 'kysely';
import { fromJson } from '../../db/json.ts';
import type { Schema } from '../../db/schema.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import type { SubjectIdentifier } from '../../screening/identifier-types.ts';
import type { SessionStatus } from './session-states.ts';

declare module '../../db/schema.ts' {
  interface Schema {
    visitor_sessions: {
      organization_id: string;
      id: string;
      status: SessionStatus;
      on_site: boolean;
      site: string;
      visitor: unknown;
      host: unknown;
      purpose: string | null;
      badge_number: string | null;
      escort_required: boolean;
      expected_departure_at: Date | string | null;
      metadata: unknown;
      screening_id: string;
      prescreen_reused: boolean;
      case_id: string | null;
      history: unknown;
      checked_in_at: Date | string | null;
      checked_out_at: Date | string | null;
      created_at: Date | string;
      updated_at: Date | string;
    };
  }
}

export type Visitor = {
  name: string;
  company?: string;
  country?: string;
  citizenship?: string;
  us_person_status?: string;
  email?: string;
  date_of_birth?: string;
  identifiers?: SubjectIdentifier[];
};
export type HistoryEntry = { at: string; actor: string; from: SessionStatus | null; to: SessionStatus; note?: string; case_id?: string };

type Dates = 'expected_departure_at' | 'checked_in_at' | 'checked_out_at' | 'created_at' | 'updated_at';
export type SessionRow = Omit<Schema['visitor_sessions'], 'organization_id' | 'visitor' | 'host' | 'metadata' | 'history' | Dates> & {
  visitor: Visitor;
  host: { name: string; email?: string } | null;
  metadata: Record<string, unknown>;
  history: HistoryEntry[];
  expected_departure_at: Date | null;
  checked_in_at: Date | null;
  checked_out_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

const COLUMNS = [
  'id',
  'status',
  'on_site',
  'site',
  'visitor',
  'host',
  'purpose',
  'badge_number',
  'escort_required',
  'expected_departure_at',
  'metadata',
  'screening_id',
  'prescreen_reused',
  'case_id',
  'history',
  'checked_in_at',
  'checked_out_at',
  'created_at',
  'updated_at',
] as const;

const date = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string));

function toSession(row: Record<(typeof COLUMNS)[number], unknown>): SessionRow {
  return {
    ...(row as unknown as SessionRow),
    visitor: fromJson<Visitor>(row.visitor),
    host: fromJson<SessionRow['host']>(row.host),
    metadata: fromJson<Record<string, unknown>>(row.metadata),
    history: fromJson<HistoryEntry[]>(row.history),
    expected_departure_at: date(row.expected_departure_at),
    checked_in_at: date(row.checked_in_at),
    checked_out_at: date(row.checked_out_at),
    created_at: date(row.created_at) as Date,
    updated_at: date(row.updated_at) as Date,
  };
}

export async function insertSession(trx: TenantTransaction, organizationId: string, row: SessionRow): Promise<void> {
  await trx
    .insertInto('visitor_sessions')
    .values({
      ...row,
      organization_id: organizationId,
      visitor: JSON.stringify(row.visitor),
      host: row.host && JSON.stringify(row.host),
      metadata: JSON.stringify(row.metadata),
      history: JSON.stringify(row.history),
    })
    .execute();
}

export async function findSession(trx: TenantTransaction, id: string, options: { forUpdate?: boolean } = {}): Promise<SessionRow | undefined> {
  let query = trx.selectFrom('visitor_sessions').select(COLUMNS).where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && toSession(row);
}

/** The sessions still moving that wait on or follow a case, locked for the caller's change. */
export async function openSessionsOfCase(trx: TenantTransaction, caseId: string): Promise<SessionRow[]> {
  const rows = await trx
    .selectFrom('visitor_sessions')
    .select(COLUMNS)
    .where('case_id', '=', caseId)
    .where('status', 'not in', ['denied', 'checked_out'])
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map(toSession);
}

/** Sessions not yet final, in id order after `afterId`: the visitors monitoring watches. */
export async function watchedSessions(trx: TenantTransaction, afterId: string | null, limit: number): Promise<SessionRow[]> {
  let query = trx.selectFrom('visitor_sessions').select(COLUMNS).where('status', 'not in', ['denied', 'checked_out']);
  if (afterId) query = query.where('id', '>', afterId);
  return (await query.orderBy('id').limit(limit).execute()).map(toSession);
}

export async function attachCase(trx: TenantTransaction, id: string, caseId: string): Promise<void> {
  await trx.updateTable('visitor_sessions').set({ case_id: caseId }).where('id', '=', id).execute();
}

export type SessionChange = {
  status?: SessionStatus;
  on_site?: boolean;
  metadata?: Record<string, unknown>;
  checked_in_at?: Date;
  checked_out_at?: Date;
  /** Appended to the history. */
  entry?: HistoryEntry;
  updated_at: Date;
};

export async function updateSession(trx: TenantTransaction, id: string, change: SessionChange): Promise<void> {
  const { metadata, entry, ...plain } = change;
  await trx
    .updateTable('visitor_sessions')
    .set({
      ...plain,
      ...(metadata !== undefined && { metadata: JSON.stringify(metadata) }),
      ...(entry && { history: sql`history || ${JSON.stringify([entry])}::jsonb` }),
    })
    .where('id', '=', id)
    .execute();
}

export type SessionFilters = { statuses?: SessionStatus[]; site?: string; since?: Date; onSite?: boolean; caseId?: string };
export type SessionPosition = { createdAt: Date; id: string };

/** Newest first; `after` continues below the last session of the page before. */
export async function listSessions(trx: TenantTransaction, filters: SessionFilters, after: SessionPosition | undefined, limit: number): Promise<SessionRow[]> {
  let query = trx.selectFrom('visitor_sessions').select(COLUMNS);
  if (filters.statuses) query = query.where('status', 'in', filters.statuses);
  if (filters.site !== undefined) query = query.where('site', '=', filters.site);
  if (filters.since) query = query.where('created_at', '>=', filters.since);
  if (filters.onSite !== undefined) query = query.where('on_site', '=', filters.onSite);
  if (filters.caseId !== undefined) query = query.where('case_id', '=', filters.caseId);
  if (after) {
    query = query.where((eb) => eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]));
  }
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(toSession);
}
