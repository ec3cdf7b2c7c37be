/**
 * What the evidence PDF is rendered from: the stored screening, the organization's current name
 * and the case's history, so the same record gives the same document until its case moves on or
 * the organization changes its name.
 */
import type { EvidenceInput, EvidenceRenderOptions } from '../../evidence/evidence-input.ts';
import { renderEvidencePdf } from '../../evidence/render-evidence.ts';
import type { EvidenceExtras, EvidenceRenderer, ScreeningView } from './service.ts';

export function evidenceInput(view: ScreeningView, { organization, auditHash, adjudication }: EvidenceExtras): EvidenceInput {
  return {
    organization,
    screening: view.record,
    ...(adjudication && { adjudication }),
    audit_chain_hash: auditHash,
    canonical_sha256: view.recordSha256,
  };
}

/** The evidence as PDF, with the configured fallback font (EVIDENCE_FALLBACK_FONT) when there is one. */
export function pdfEvidence(fallbackFont: EvidenceRenderOptions['fallbackFont'] | undefined): EvidenceRenderer {
  const options = fallbackFont ? { fallbackFont } : {};
  return (view, extras) => renderEvidencePdf(evidenceInput(view, extras), options);
}
