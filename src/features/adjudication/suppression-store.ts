/**
 * Suppressions in the tenant's transaction: written when a case is cleared, read by every
 * screening that finds a potential match.
 */
import type { TenantTransaction } from '../../db/tenant.ts';

declare module '../../db/schema.ts' {
  interface Schema {
    suppressions: {
      organization_id: string;
      id: string;
      subject_fingerprint: string;
      list: string;
      entry_id: string;
      entry_sha256: string;
      case_id: string;
      created_by: string;
      created_at: Date | string;
      expires_at: Date | string | null;
    };
  }
}

export type Suppression = { id: string; subject_fingerprint: string; list: string; entry_id: string; entry_sha256: string };
export type NewSuppression = Suppression & { case_id: string; created_by: string; created_at: Date; expires_at: Date | null };

/** Suppressions in force at `now` for any of these subjects. */
export async function activeSuppressions(trx: TenantTransaction, fingerprints: string[], now: Date): Promise<Suppression[]> {
  if (fingerprints.length === 0) return [];
  return trx
    .selectFrom('suppressions')
    .select(['id', 'subject_fingerprint', 'list', 'entry_id', 'entry_sha256'])
    .where('subject_fingerprint', 'in', [...new Set(fingerprints)])
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('created_at', 'desc')
    .execute();
}

/** The most suppressions of one organization kept in memory (src/db/stamped-cache.ts); one with more is asked each time. */
const MAX_KEPT = 5_000;
/** Kept suppressions include those expired this long ago, for a screening dated slightly in the past (a monitoring run's start). */
const KEPT_AFTER_EXPIRY_MS = 3_600_000;

export type KeptSuppressions = { complete: true; rows: (Suppression & { expires_at: Date | null })[] } | { complete: false };

/** The organization's suppressions that may be in force now or soon after, newest first, when there are few enough to keep. */
export async function suppressionsToKeep(trx: TenantTransaction, now: Date): Promise<KeptSuppressions> {
  const rows = await trx
    .selectFrom('suppressions')
    .select(['id', 'subject_fingerprint', 'list', 'entry_id', 'entry_sha256', 'expires_at'])
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date(now.getTime() - KEPT_AFTER_EXPIRY_MS))]))
    .orderBy('created_at', 'desc')
    .limit(MAX_KEPT + 1)
    .execute();
  if (rows.length > MAX_KEPT) return { complete: false };
  return { complete: true, rows: rows.map((row) => ({ ...row, expires_at: row.expires_at === null ? null : new Date(row.expires_at) })) };
}

/** What `activeSuppressions` would answer, from kept rows. */
export function activeAmong(kept: Extract<KeptSuppressions, { complete: true }>['rows'], fingerprints: string[], now: Date): Suppression[] {
  const wanted = new Set(fingerprints);
  return kept
    .filter((s) => wanted.has(s.subject_fingerprint) && (s.expires_at === null || s.expires_at > now))
    .map(({ id, subject_fingerprint, list, entry_id, entry_sha256 }) => ({ id, subject_fingerprint, list, entry_id, entry_sha256 }));
}

export async function insertSuppressions(trx: TenantTransaction, organizationId: string, rows: NewSuppression[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('suppressions')
    .values(rows.map((row) => ({ ...row, organization_id: organizationId })))
    .execute();
}
