/**
 * The last part of the evidence document: the country flags, the adjudication history, and the
 * two hashes with how an auditor checks each one against Gatehouse.
 */

import { orNotGiven } from './evidence-format.ts';
import type { EvidenceInput } from './evidence-input.ts';
import { columns, type EvidenceWriter } from './evidence-writer.ts';

const FLAG_COLUMNS = columns(['Country / region', 2.2], ['Regime', 3.7], ['Severity', 1.6], ['Reason', 4.6], ['Citation', 3.4]);

export function writeCountryFlags(w: EvidenceWriter, { screening }: EvidenceInput) {
  w.heading('Country flags');
  const rows = screening.country_flags.map((flag) => ({
    cells: [
      [flag.country, flag.region, flag.matched_term && `found as "${flag.matched_term}"`].filter(Boolean).join(' / '),
      flag.regime,
      flag.severity,
      flag.reason,
      flag.citation,
    ],
    note: `In force from ${flag.effective_from}${flag.effective_from_exact ? '' : ' or earlier'}. Source: ${flag.source_url}`,
  }));
  w.tableOr('No country or region given for the subject is under a sanctions or export-control regime.', FLAG_COLUMNS, rows);
}

/** The reason goes under its row across the page: reasons are sentences, actors long e-mail addresses. */
const HISTORY_COLUMNS = columns(['When (UTC)', 125], ['Who', 190], ['Action', 80], ['Disposition', 100]);

/**
 * `api_key:key_…` as `api_key key_…`, as the screening's Actor field writes it: the space is where
 * the line may break, so the id stays whole and a search of the PDF for it finds it.
 */
export const actorWords = (actor: string) => actor.replace(':', ' ');

export function writeAdjudication(w: EvidenceWriter, { adjudication }: EvidenceInput) {
  if (!adjudication) {
    w.heading('Adjudication');
    w.paragraph('No adjudication case.');
    return;
  }
  const history = adjudication.history.map((h) => ({
    cells: [h.at, actorWords(h.actor), h.action, orNotGiven(h.disposition, '—')],
    ...(h.reason && { note: `Reason: ${h.reason}` }),
  }));
  w.heading('Adjudication', 40 + (history.length > 0 ? w.tableHeight(HISTORY_COLUMNS, history) : 20));
  w.fields([
    ['Case id', adjudication.case_id],
    ['Current status', adjudication.status],
  ]);
  w.tableOr('The case has no recorded action yet.', HISTORY_COLUMNS, history);
}

export function writeIntegrity(w: EvidenceWriter, input: EvidenceInput) {
  w.heading('Integrity', 120);
  w.fields([
    ['Audit chain hash', input.audit_chain_hash],
    [
      'How to verify',
      `Run gatehouse audit verify --org ${input.organization.id}: it re-walks the organization's audit hash chain and exits 1 at the first broken link, so an intact chain holding the event with this hash shows the screening was recorded then and not altered since.`,
    ],
  ]);
  w.fields([
    ['Record SHA-256', input.canonical_sha256],
    [
      'How to verify',
      `Fetch GET /api/v1/screenings/${input.screening.id}, remove case_id, case_status and record_sha256 (they follow the adjudication), write the rest as JSON with the keys sorted at every depth and no spaces, and hash it with SHA-256: the result must equal this value.`,
    ],
  ]);
  w.paragraph(
    'Times are UTC (ISO 8601). Text between ‹ › is a transliteration of characters the font embedded in this document cannot draw; the record keeps the original. Gatehouse renders this document from the stored record only, so the same record always gives the same file.',
    { color: '#555555', size: 8 },
  );
}
