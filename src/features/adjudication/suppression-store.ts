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

export async function insertSuppressions(trx: TenantTransaction, organizationId: string, rows: NewSuppression[]): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('suppressions')
    .values(rows.map((row) => ({ ...row, organization_id: organizationId })))
    .execute();
}
