/** A stored determination's evidence PDF, from its record as read back, with its graph drawn. */
import type { StoredCheck } from '../check-store.ts';
import { renderOwnershipEvidencePdf } from './render-ownership-evidence.ts';

export function renderDeterminationEvidence(organization: { id: string; name: string }, stored: StoredCheck): Promise<Buffer> {
  return renderOwnershipEvidencePdf({ organization, check: { ...stored.record, record_sha256: stored.recordSha256 } });
}
