/**
 * What the evidence PDF is rendered from: the stored screening, the organization's current name
 * and the case's history, so the same record gives the same document until its case moves on or
 * the organization changes its name.
 */
import type { EvidenceInput } from '../../evidence/evidence-input.ts';
import type { EvidenceExtras, ScreeningView } from './service.ts';

export function evidenceInput(view: ScreeningView, { organization, auditHash, adjudication }: EvidenceExtras): EvidenceInput {
  return {
    organization,
    screening: view.record,
    ...(adjudication && { adjudication }),
    audit_chain_hash: auditHash,
    canonical_sha256: view.recordSha256,
  };
}
