/**
 * Screenings and vendors in the tenant's transaction. A screening row holds the answer as given
 * (record), its hash, and the hash of the bulk operation's audit event that recorded it, if any.
 */
import { sql } from 'kysely';
import { fromJson } from '../../db/json.ts';
import { rowsAtCommit } from '../../db/rows-at-commit.ts';
import type { Timestamp } from '../../db/schema.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import type { SubjectIdentifier } from '../../screening/identifier-types.ts';
import type { MatchRecord, ScreeningRecord } from './screening-record.ts';

declare module '../../db/schema.ts' {
  interface Schema {
    screenings: {
      organization_id: string;
      id: string;
      source: string;
      outcome: string;
      score: number;
      reference: string | null;
      case_id: string | null;
      record: unknown;
      record_sha256: string;
      audit_hash: string | null;
      actor: string;
      request_id: string;
      created_at: Date | string;
    };
    vendors: {
      organization_id: string;
      id: string;
      external_id: string | null;
      name: string;
      country: string | null;
      identifiers: unknown;
      reference: string | null;
      latest_screening_id: string;
      created_at: Timestamp;
      updated_at: Timestamp;
    };
  }
}

/**
 * `auditHash`: the hash of the bulk operation's audit event that recorded the screening (a
 * workforce sync, a monitoring run); null when the screening has its own event, which is appended
 * as its transaction commits and is read from the chain (see recordingEventHash).
 */
export type StoredScreening = { record: ScreeningRecord; recordSha256: string; auditHash: string | null; caseId: string | null };

/**
 * Stores the screenings with the transaction: written by its last statement (see
 * db/rows-at-commit.ts), before the cases that reference them, which the same query writes after.
 * Rows written in the transaction before it commits therefore may reference a screening only
 * through a foreign key checked at commit (cases and visitor sessions, migrations 0033 and 0034).
 */
export function recordScreenings(trx: TenantTransaction, organizationId: string, stored: readonly StoredScreening[]): void {
  const rows = rowsAtCommit(trx, 'screenings');
  for (const { record, recordSha256, auditHash, caseId } of stored) {
    rows.push({
      organization_id: organizationId,
      id: record.id,
      source: record.source,
      outcome: record.outcome,
      score: record.score,
      reference: record.reference,
      case_id: caseId,
      record,
      record_sha256: recordSha256,
      audit_hash: auditHash,
      actor: `${record.actor.kind}:${record.actor.id}`,
      request_id: record.request_id,
      created_at: record.created_at,
    });
  }
}

export async function findScreening(trx: TenantTransaction, id: string): Promise<StoredScreening | undefined> {
  const row = await trx.selectFrom('screenings').select(['record', 'record_sha256', 'audit_hash', 'case_id']).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const record = fromJson<ScreeningRecord>(row.record);
  return { record, recordSha256: row.record_sha256, auditHash: row.audit_hash, caseId: row.case_id };
}

/** What a list of cases or visitors shows of each screening: what was screened, its best match and its country flags and holds, not the whole record. */
export type ScreeningSummary = {
  id: string;
  input: ScreeningRecord['input'];
  top_match: { list: string; entry_id: string; entry_name: string; score: number } | null;
  country_flags: ScreeningRecord['country_flags'];
  /** Absent in screenings stored before holds existed. */
  holds: ScreeningRecord['holds'] | undefined;
};

export async function screeningSummaries(trx: TenantTransaction, ids: string[]): Promise<ScreeningSummary[]> {
  if (ids.length === 0) return [];
  const rows = await trx
    .selectFrom('screenings')
    .select([
      'id',
      sql<unknown>`record->'input'`.as('input'),
      sql<unknown>`record->'matches'->0`.as('top'),
      sql<unknown>`record->'country_flags'`.as('flags'),
      sql<unknown>`record->'holds'`.as('holds'),
    ])
    .where('id', 'in', ids)
    .execute();
  return rows.map((row) => {
    const top = fromJson<MatchRecord | null>(row.top);
    return {
      id: row.id,
      input: fromJson<ScreeningRecord['input']>(row.input),
      top_match: top ? { list: top.list, entry_id: top.entry_id, entry_name: top.entry_name, score: top.score } : null,
      country_flags: fromJson<ScreeningRecord['country_flags']>(row.flags),
      holds: fromJson<ScreeningRecord['holds'] | null>(row.holds) ?? undefined,
    };
  });
}

export type VendorUpsert = {
  externalId?: string;
  name: string;
  country?: string;
  identifiers: SubjectIdentifier[];
  reference?: string;
  screeningId: string;
};

/**
 * Stores a vendor, or updates the one with the same external id, in one statement, so two batches
 * naming the same new vendor at once cannot both insert it; returns the vendor's id.
 */
export async function upsertVendor(trx: TenantTransaction, organizationId: string, id: string, vendor: VendorUpsert): Promise<string> {
  const values = {
    name: vendor.name,
    country: vendor.country ?? null,
    identifiers: JSON.stringify(vendor.identifiers),
    reference: vendor.reference ?? null,
    latest_screening_id: vendor.screeningId,
  };
  const row = await trx
    .insertInto('vendors')
    .values({ organization_id: organizationId, id, external_id: vendor.externalId ?? null, ...values })
    .onConflict((conflict) =>
      conflict
        .columns(['organization_id', 'external_id'])
        .where('external_id', 'is not', null)
        .doUpdateSet({ ...values, updated_at: new Date() }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Whether the caller's organization has this vendor (row-level security hides another's). */
export async function vendorExists(trx: TenantTransaction, id: string): Promise<boolean> {
  return (await trx.selectFrom('vendors').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function organizationName(trx: TenantTransaction, organizationId: string): Promise<string> {
  const row = await trx.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirst();
  return row?.name ?? organizationId;
}

export type WatchedVendor = { id: string; name: string; country: string | null; identifiers: SubjectIdentifier[]; case_id: string | null; updated_at: Date };

/** Vendors in id order after `afterId`, with the case of their latest screening: what monitoring watches. */
export async function watchedVendors(trx: TenantTransaction, afterId: string | null, limit: number): Promise<WatchedVendor[]> {
  let query = trx
    .selectFrom('vendors as v')
    .leftJoin('screenings as s', (join) => join.onRef('s.organization_id', '=', 'v.organization_id').onRef('s.id', '=', 'v.latest_screening_id'))
    .select(['v.id', 'v.name', 'v.country', 'v.identifiers', 's.case_id', 'v.updated_at']);
  if (afterId) query = query.where('v.id', '>', afterId);
  const rows = await query.orderBy('v.id').limit(limit).execute();
  return rows.map((row) => ({
    ...row,
    identifiers: fromJson<SubjectIdentifier[]>(row.identifiers),
    case_id: row.case_id ?? null,
    updated_at: new Date(row.updated_at),
  }));
}

export async function recordVendorRescreen(trx: TenantTransaction, id: string, screeningId: string): Promise<void> {
  await trx.updateTable('vendors').set({ latest_screening_id: screeningId }).where('id', '=', id).execute();
}
