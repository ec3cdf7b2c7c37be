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

type SuppressionRow = Suppression & { expires_at: Date | null };
const ROW_COLUMNS = ['id', 'subject_fingerprint', 'list', 'entry_id', 'entry_sha256', 'expires_at'] as const;

/** Suppressions in force at `now` for any of these subjects. */
export async function activeSuppressions(trx: TenantTransaction, fingerprints: string[], now: Date): Promise<Suppression[]> {
  if (fingerprints.length === 0) return [];
  const rows = await trx
    .selectFrom('suppressions')
    .select(ROW_COLUMNS)
    .where('subject_fingerprint', 'in', [...new Set(fingerprints)])
    .orderBy('created_at', 'desc')
    .execute();
  return inForce(rows.map(asRow), fingerprints, now);
}

/** The one rule for which suppressions apply, whether the rows were just read or kept. */
function inForce(rows: readonly SuppressionRow[], fingerprints: string[], now: Date): Suppression[] {
  const wanted = new Set(fingerprints);
  return rows
    .filter((s) => wanted.has(s.subject_fingerprint) && (s.expires_at === null || s.expires_at > now))
    .map(({ id, subject_fingerprint, list, entry_id, entry_sha256 }) => ({ id, subject_fingerprint, list, entry_id, entry_sha256 }));
}

const asRow = (row: Omit<SuppressionRow, 'expires_at'> & { expires_at: Date | string | null }): SuppressionRow => ({
  ...row,
  expires_at: row.expires_at === null ? null : new Date(row.expires_at),
});

/** The most suppressions of one organization kept in memory (src/db/stamped-cache.ts); one with more is asked each time. */
export const MAX_KEPT = 5_000;
/** Kept suppressions include those expired this long ago, for a screening dated slightly in the past (a batch's start). */
const KEPT_AFTER_EXPIRY_MS = 3_600_000;

/** The organization's suppressions that expire after `since` or never, when there are few enough to keep. */
export type KeptSuppressions = { complete: true; since: Date; rows: SuppressionRow[] } | { complete: false };

/** The organization's suppressions that may be in force now or soon after, newest first, when there are few enough to keep. */
export async function suppressionsToKeep(trx: TenantTransaction, now: Date): Promise<KeptSuppressions> {
  const since = new Date(now.getTime() - KEPT_AFTER_EXPIRY_MS);
  const rows = await trx
    .selectFrom('suppressions')
    .select(ROW_COLUMNS)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', since)]))
    .orderBy('created_at', 'desc')
    .limit(MAX_KEPT + 1)
    .execute();
  if (rows.length > MAX_KEPT) return { complete: false };
  return { complete: true, since, rows: rows.map(asRow) };
}

/**
 * What `activeSuppressions` would answer at `now`, from kept rows, or undefined when they cannot
 * tell: too many to keep, or `now` before the earliest expiry they cover.
 */
export function activeAmong(kept: KeptSuppressions, fingerprints: string[], now: Date): Suppression[] | undefined {
  if (!kept.complete || now < kept.since) return undefined;
  return inForce(kept.rows, fingerprints, now);
}

export async function insertSuppressions(trx: TenantTransaction, organizationId: string, rows: NewSuppression[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('suppressions')
    .values(rows.map((row) => ({ ...row, organization_id: organizationId })))
    .execute();
}
