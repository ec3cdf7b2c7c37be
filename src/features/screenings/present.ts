/**
 * A stored screening as the API shows it: the record as answered, its hash, and where its
 * adjudication stands.
 */
import type { StoredScreening } from './store.ts';

export function presentScreening(stored: StoredScreening) {
  const caseStatus = stored.caseId ? 'open' : stored.needsCase ? 'awaiting_case' : null;
  return { ...stored.record, case_id: stored.caseId, case_status: caseStatus, record_sha256: stored.recordSha256 };
}
