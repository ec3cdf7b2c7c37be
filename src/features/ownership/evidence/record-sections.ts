/**
 * The last part of the ownership evidence: the list versions the names were screened against,
 * with their SHA-256 and whether any was past its maximum age, and the record's own hash, with
 * the earlier determination this one re-evaluated.
 */
import { orNotGiven } from '../../../evidence/evidence-format.ts';
import { columns, type EvidenceWriter } from '../../../evidence/evidence-writer.ts';
import { staleListSentences } from '../../../evidence/list-freshness-words.ts';
import type { OwnershipEvidenceInput } from './ownership-evidence-input.ts';

const LIST_VERSION_COLUMNS = columns(['List', 2.4], ['Version id', 4.6], ['Published', 2], ['Imported (UTC)', 3.4]);

export function writeListVersions(w: EvidenceWriter, { check }: OwnershipEvidenceInput) {
  const { screening } = check.answer;
  w.heading('List versions used');
  if (!screening.performed) {
    w.paragraph('No names were screened, so no list version was consulted: the designations given in the request were used as given.');
    return;
  }
  w.paragraph(
    "Every version of every list the parties' names were screened against, and your organization's watchlists, with the SHA-256 of the source Gatehouse imported.",
  );
  const rows = screening.list_versions.map((v) => ({
    cells: [v.list, v.version_id, orNotGiven(v.published_on, 'not stated'), v.imported_at],
    note: `SHA-256 ${v.source_sha256}`,
  }));
  w.tableOr('No list version is recorded for this check.', LIST_VERSION_COLUMNS, rows);
  for (const sentence of staleListSentences(screening)) w.paragraph(sentence, screening.lists_stale ? { font: 'bold' } : {});
}

export function writeIntegrity(w: EvidenceWriter, { check }: OwnershipEvidenceInput) {
  w.heading('Integrity', 100);
  w.fields([
    ['Record SHA-256', check.record_sha256],
    [
      'How to verify',
      `GET /api/v1/ownership/checks/${check.id} answers the record with record_sha256_verified. By hand: the SHA-256 of the record's JSON (every field but superseded_by, case_id and the hash fields; object keys sorted at every depth, no spaces) must equal this value, showing the graph, the answer and who asked were not altered since.`,
    ],
    [
      'Supersedes',
      check.supersedes
        ? `${check.supersedes}: this determination re-evaluated that earlier one (a list changed), and replaces it`
        : 'nothing: this is the first determination of this check',
    ],
  ]);
  w.paragraph(
    'Times are UTC (ISO 8601); dates of the rules are US Eastern calendar dates. Text between ‹ › is a transliteration of characters the font embedded in this document cannot draw; ' +
      'the record keeps the original. Gatehouse renders this document from the stored record only, so the same record always gives the same file.',
    { color: '#555555', size: 8 },
  );
}
