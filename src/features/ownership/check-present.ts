/** Stored determinations as the API shows them (check-schemas.ts). */
import { recordSha256 } from './check-record.ts';
import type { CheckSummary, StoredCheck } from './check-store.ts';

/** The whole record, its hash recomputed: a record changed since it was stored says so. */
export function presentStoredCheck({ record, recordSha256: stored, caseId, supersededBy }: StoredCheck) {
  return {
    object: 'ownership_determination' as const,
    ...record,
    superseded_by: supersededBy,
    case_id: caseId,
    record_sha256: stored,
    record_sha256_verified: recordSha256(record) === stored,
  };
}

export function presentCheckSummary(row: CheckSummary) {
  return {
    object: 'ownership_determination' as const,
    id: row.id,
    checked_at: row.checked_at.toISOString(),
    status: row.status,
    as_of: row.as_of,
    target: { id: row.target_id, name: row.target_name },
    vendor_id: row.vendor_id,
    supersedes: row.supersedes_id,
    superseded_by: row.superseded_by_id,
    case_id: row.case_id,
    record_sha256: row.record_sha256,
  };
}
