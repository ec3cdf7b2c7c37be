/**
 * The parties that bear on the verdict, each with its designations (given by the caller or found
 * by screening its name, with the list entry that matched and its score), its status under each
 * rule; then the warnings a reviewer must read beside the verdict.
 */
import { formatScore } from '../../../evidence/evidence-format.ts';
import { columns, type EvidenceWriter, type TableRow } from '../../../evidence/evidence-writer.ts';
import type { OwnershipAnswer, OwnershipEvidenceInput } from './ownership-evidence-input.ts';
import { type Parties, partiesOf } from './ownership-words.ts';

type EntityVerdict = OwnershipAnswer['entities'][number];

const PARTY_COLUMNS = columns(['Party', 4.6], ['Type, country', 1.8], ['Designations', 4], ['OFAC', 1.6], ['BIS', 1.6]);
const WARNING_COLUMNS = columns(['Warning', 2.6], ['Detail', 6.4], ['Parties concerned', 3]);

export function writeParties(w: EvidenceWriter, { check }: OwnershipEvidenceInput) {
  const parties = partiesOf(check);
  const rows = check.answer.entities.map((entity) => partyRow(entity, parties));
  w.heading('Parties that bear on the verdict', w.tableHeight(PARTY_COLUMNS, rows.slice(0, 3)) + 30);
  w.paragraph(
    'The target and every party designated (by the caller, or found by screening its name), matched by screening, or covered under either rule, in the order submitted. ' +
      'A designation found by screening names the list entry it matched.',
  );
  w.table(PARTY_COLUMNS, rows);
}

function partyRow(entity: EntityVerdict, parties: Parties): TableRow {
  const party = parties.get(entity.id);
  const designations = entity.designations.map(
    (d) =>
      `${d.list}${d.programs?.length ? ` [${d.programs.join(', ')}]` : ''}, ${d.source === 'given' ? 'given' : `found by screening${d.entry_id ? ` (entry ${d.entry_id})` : ''}`}`,
  );
  const matches = (entity.screening_matches ?? []).map(
    (m) =>
      `${m.list} entry ${m.entry_id} "${m.entry_name}", matched as "${m.matched_name}", score ${formatScore(m.score)}, ` +
      `${m.watchlist ? "on your organization's watchlist, reported only" : m.counted ? 'counted' : 'below the threshold, not counted'}; list version ${m.list_version}`,
  );
  return {
    cells: [
      parties.name(entity.id),
      [party?.type ?? '', party?.country?.toUpperCase() ?? ''].filter(Boolean).join(', '),
      designations.length > 0 ? designations.join('; ') : 'none',
      ruleStatus(entity.ofac_blocked, entity.ofac_determinate, 'blocked'),
      ruleStatus(entity.bis_restricted, entity.bis_determinate, 'restricted'),
    ],
    ...(matches.length > 0 && { note: `Screening matched: ${matches.join(' | ')}` }),
  };
}

const ruleStatus = (reached: boolean, determinate: boolean, word: string) => (reached ? word : determinate ? 'no' : `possibly ${word}`);

export function writeWarnings(w: EvidenceWriter, { check }: OwnershipEvidenceInput) {
  const parties = partiesOf(check);
  w.heading('Warnings');
  const rows = check.answer.warnings.map((warning) => {
    const named = (warning.entities ?? []).map(parties.name);
    const more = warning.count !== undefined && warning.count > named.length ? `; ${warning.count - named.length} more` : '';
    return { cells: [warning.code, warning.detail, named.length > 0 ? `${named.join('; ')}${more}` : '—'] };
  });
  w.tableOr('None: nothing in the structure bounds or qualifies the verdict.', WARNING_COLUMNS, rows);
}
