/**
 * A stored screening as the API shows it: the record as answered, its hash, and where its
 * adjudication stands.
 */
import type { ScreeningView } from './pipeline.ts';

export function presentScreening(view: ScreeningView) {
  return { ...view.record, case_id: view.caseId, case_status: view.caseStatus, record_sha256: view.recordSha256 };
}

/** A screening as GET /screenings/{id} answers it (and the console shows it). */
export type PresentedScreening = ReturnType<typeof presentScreening>;
