/**
 * What the evidence PDF is rendered from: the stored screening and the organization's current
 * name, so the same record gives the same document as long as the organization keeps its name.
 */
import type { EvidenceInput } from '../../evidence/evidence-input.ts';
import type { StoredScreening } from './store.ts';

export function evidenceInput(stored: StoredScreening, organization: { id: string; name: string }): EvidenceInput {
  const { record } = stored;
  return {
    organization,
    screening: {
      id: record.id,
      created_at: record.created_at,
      request_id: record.request_id,
      actor: record.actor,
      source: record.source,
      input: record.input,
      outcome: record.outcome,
      score: record.score,
      thresholds: record.thresholds,
      matches: record.matches,
      country_flags: record.country_flags,
      list_versions: record.list_versions,
    },
    audit_chain_hash: stored.auditHash,
    canonical_sha256: stored.recordSha256,
  };
}
