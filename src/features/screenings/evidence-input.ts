/**
 * What the evidence PDF is rendered from: the stored screening and the organization's current
 * name, so the same record gives the same document as long as the organization keeps its name.
 */
import type { EvidenceInput } from '../../evidence/evidence-input.ts';
import type { StoredScreening } from './store.ts';

export function evidenceInput(stored: StoredScreening, organization: { id: string; name: string }): EvidenceInput {
  return { organization, screening: stored.record, audit_chain_hash: stored.auditHash, canonical_sha256: stored.recordSha256 };
}
