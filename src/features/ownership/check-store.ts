/**
 * Stored ownership determinations in the tenant's transaction. Ids sort by creation time
 * (src/ids.ts), so the list reads newest first by id and its cursor is the last id.
 */
import { type Selectable, sql } from 'kysely';
import { fromJson } from '../../db/json.ts';
import type { Schema, Timestamp } from '../../db/schema.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import { AppError } from '../../http/errors.ts';
import type { OwnershipStatus } from '../cases/rules.ts';
import type { OwnershipCheckRecord } from './check-record.ts';

declare module '../../db/schema.ts' {
  interface Schema {
    ownership_checks: {
      organization_id: string;
      id: string;
      target_id: string;
      target_name: string | null;
      status: OwnershipStatus;
      as_of: string;
      vendor_id: string | null;
      case_id: string | null;
      supersedes_id: string | null;
      superseded_by_id: string | null;
      record: unknown;
      record_sha256: string;
      actor: string;
      checked_at: Timestamp;
    };
  }
}

/** A determination as read back: the record, its hash as stored, and what was learned after it. */
export type StoredCheck = { record: OwnershipCheckRecord; recordSha256: string; caseId: string | null; supersededBy: string | null };

export type CheckFilters = {
  /** The target's name contains this, case-insensitively. */
  q?: string;
  targetId?: string;
  status?: OwnershipStatus;
  vendorId?: string;
  checkedAfter?: Date;
  checkedBefore?: Date;
  /** Only determinations no re-evaluation superseded. */
  current?: boolean;
  /** Only these (the queue's cases about determinations). */
  ids?: readonly string[];
};

export async function insertCheck(trx: TenantTransaction, organizationId: string, record: OwnershipCheckRecord, hash: string, caseId: string | null) {
  await trx
    .insertInto('ownership_checks')
    .values({
      organization_id: organizationId,
      id: record.id,
      target_id: record.target.id,
      target_name: record.target.name,
      status: record.status,
      as_of: record.as_of,
      vendor_id: record.vendor_id,
      case_id: caseId,
      supersedes_id: record.supersedes,
      superseded_by_id: null,
      record: JSON.stringify(record),
      record_sha256: hash,
      actor: `${record.asked_by.type}:${record.asked_by.id}`,
      checked_at: record.checked_at,
    })
    .execute();
}

const COLUMNS = ['record', 'record_sha256', 'case_id', 'superseded_by_id'] as const;
type Row = { record: unknown; record_sha256: string; case_id: string | null; superseded_by_id: string | null };
const stored = (row: Row): StoredCheck => ({
  record: fromJson<OwnershipCheckRecord>(row.record),
  recordSha256: row.record_sha256,
  caseId: row.case_id,
  supersededBy: row.superseded_by_id,
});

export async function findCheck(trx: TenantTransaction, id: string, options: { forUpdate?: boolean } = {}): Promise<StoredCheck | undefined> {
  let query = trx.selectFrom('ownership_checks').select(COLUMNS).where('id', '=', id);
  if (options.forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? stored(row) : undefined;
}

/** The determination, or 404: another organization's is not there under row-level security. */
export async function requireCheck(trx: TenantTransaction, id: string): Promise<StoredCheck> {
  const found = await findCheck(trx, id);
  if (!found) throw new AppError('not_found', `No ownership determination ${id}.`);
  return found;
}

/** What the list shows of a determination: its columns, never the record (a graph may hold 100,000 parties). */
export type CheckSummary = Omit<Selectable<Schema['ownership_checks']>, 'organization_id' | 'record'>;

/** Newest first; `limit` rows after `afterId` (the last id of the page before). */
export async function listChecks(trx: TenantTransaction, filters: CheckFilters, page: { limit: number; afterId?: string }): Promise<CheckSummary[]> {
  let query = trx
    .selectFrom('ownership_checks')
    // The date as text, never through a driver's Date at local midnight.
    .select([
      'id',
      'target_id',
      'target_name',
      'status',
      sql<string>`as_of::text`.as('as_of'),
      'vendor_id',
      'case_id',
      'supersedes_id',
      'superseded_by_id',
      'record_sha256',
      'actor',
      'checked_at',
    ])
    .orderBy('id', 'desc')
    .limit(page.limit);
  if (page.afterId) query = query.where('id', '<', page.afterId);
  if (filters.q) query = query.where(sql<boolean>`strpos(lower(coalesce(target_name, '')), lower(${filters.q})) > 0`);
  if (filters.targetId) query = query.where('target_id', '=', filters.targetId);
  if (filters.status) query = query.where('status', '=', filters.status);
  if (filters.vendorId) query = query.where('vendor_id', '=', filters.vendorId);
  if (filters.checkedAfter) query = query.where('checked_at', '>', filters.checkedAfter);
  if (filters.checkedBefore) query = query.where('checked_at', '<', filters.checkedBefore);
  if (filters.current) query = query.where('superseded_by_id', 'is', null);
  if (filters.ids) query = query.where('id', 'in', filters.ids.length > 0 ? filters.ids : ['']);
  return (await query.execute()).map((row) => ({ ...row, checked_at: new Date(row.checked_at) }));
}

export async function setCheckCase(trx: TenantTransaction, id: string, caseId: string) {
  await trx.updateTable('ownership_checks').set({ case_id: caseId }).where('id', '=', id).execute();
}

export async function markSuperseded(trx: TenantTransaction, id: string, by: string) {
  await trx.updateTable('ownership_checks').set({ superseded_by_id: by }).where('id', '=', id).where('superseded_by_id', 'is', null).execute();
}
