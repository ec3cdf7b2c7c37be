/**
 * The first part of the evidence document: who asked, what was screened and when, what came out,
 * and against which list versions, in the order an auditor reads a screening.
 */

import { dispositionWords } from './disposition-words.ts';
import { formatCount, formatScore, orNotGiven } from './evidence-format.ts';
import type { EvidenceIdentifier, EvidenceInput } from './evidence-input.ts';
import { columns, type EvidenceWriter } from './evidence-writer.ts';
import { outcomeWords } from './hold-sections.ts';
import { staleListSentences, staleListsSummary } from './list-freshness-words.ts';

const SOURCE_WORDS: Record<EvidenceInput['screening']['source'], string> = {
  prescreen: 'pre-screening request (POST /api/v1/prescreen)',
  vendor: 'vendor screening (POST /api/v1/vendors/screen)',
  checkin: 'visitor check-in',
  workforce: 'workforce screening',
  rescreen: 'rescreening after a list update',
};

export function writeTitle(w: EvidenceWriter, input: EvidenceInput) {
  w.title('Restricted-party screening evidence');
  w.fields([
    ['Organization', input.organization.name],
    ['Organization id', input.organization.id],
    ['Screening id', input.screening.id],
  ]);
}

export function writeScreenedSubject(w: EvidenceWriter, { screening }: EvidenceInput) {
  const given = screening.input;
  w.heading('What was screened, and when');
  w.fields([
    ['Screened at (UTC)', screening.created_at],
    ['Subject type', given.type],
    ['Subject name', orNotGiven(given.subject)],
    ['Company', orNotGiven(given.company)],
    ['Country', orNotGiven(given.country)],
    ['Date of birth', orNotGiven(given.date_of_birth)],
    ['Nationality', orNotGiven(given.nationality)],
    ['Aliases', given.aliases?.length ? given.aliases.join('; ') : 'not given'],
    ['Identifiers', given.identifiers?.length ? given.identifiers.map(identifierText).join('; ') : 'not given'],
    ["Caller's reference", orNotGiven(given.reference)],
  ]);
}

const identifierText = (identifier: EvidenceIdentifier) =>
  typeof identifier === 'string' ? identifier : `${identifier.type} ${identifier.value}${identifier.country ? ` (${identifier.country})` : ''}`;

export function writeRequester(w: EvidenceWriter, { screening }: EvidenceInput) {
  w.heading('Who requested it');
  w.fields([
    ['Actor', `${screening.actor.kind} ${screening.actor.id}`],
    ['Request id', screening.request_id],
    ['Source', SOURCE_WORDS[screening.source] ?? screening.source],
  ]);
}

export function writeOutcome(w: EvidenceWriter, input: EvidenceInput) {
  const { screening } = input;
  const disposition = dispositionWords(input);
  w.heading('Outcome');
  const count = screening.matches.length;
  const suppressed = screening.matches.filter((m) => m.suppressed_by).length;
  const { thresholds } = screening;
  const perList = Object.entries(thresholds.lists).map(([list, t]) => `${list} ${formatScore(t)}`);
  w.fields([
    ['Outcome', outcomeWords(screening)],
    ...(disposition ? [['Disposition', disposition] as [string, string]] : []),
    ['Match threshold', `${formatScore(thresholds.match)}${perList.length > 0 ? `; ${perList.join(', ')}` : ''}`],
    ['Auto-clear band', formatScore(thresholds.auto_clear_band)],
    ['Rules version', String(thresholds.rules_version)],
    ['Highest score', formatScore(screening.score)],
    ['Matches', count === 0 ? 'none' : `${count}, listed below${suppressed > 0 ? `; ${suppressed} covered by a suppression, alerting no one` : ''}`],
    ['Auto-cleared matches', autoClearedWords(screening.auto_cleared_matches)],
    ['Country flags', screening.country_flags.length === 0 ? 'none' : `${screening.country_flags.length}, listed below`],
    ...(screening.holds ? [['Country holds', screening.holds.length === 0 ? 'none' : `${screening.holds.length}, listed below`] as [string, string]] : []),
    ['Stale lists', staleListsSummary(screening)],
  ]);
}

/** How many were cleared without a person, by what: the page-1 summary of the auto-cleared section. */
function autoClearedWords(cleared: EvidenceInput['screening']['auto_cleared_matches']): string {
  if (cleared.length === 0) return 'none';
  const count = (kind: string) => cleared.filter((m) => (m.cleared_by?.kind ?? 'band') === kind).length;
  const rules = [...new Set(cleared.flatMap((m) => (m.cleared_by?.rule ? [`"${m.cleared_by.rule}"`] : [])))];
  const parts = [
    count('band') > 0 ? `${count('band')} within the auto-clear band` : '',
    count('rule') > 0 ? `${count('rule')} by clearing rule ${rules.join(', ')}` : '',
    count('suppression') > 0 ? `${count('suppression')} by a suppression` : '',
  ];
  return `${cleared.length}, listed below: ${parts.filter(Boolean).join('; ')}`;
}

const LIST_VERSION_COLUMNS = columns(['List', 2], ['Version id', 4], ['Published', 2], ['Imported (UTC)', 3.4], ['Entities', 1.4]);

export function writeListVersions(w: EvidenceWriter, { screening }: EvidenceInput) {
  w.heading('List versions consulted');
  if (screening.list_versions.length > 0) {
    w.paragraph('Every version of every list this screening was matched against, with the SHA-256 Gatehouse recorded when it imported that version.');
  }
  const rows = screening.list_versions.map((v) => ({
    cells: [v.list, v.version_id, orNotGiven(v.published_on, 'not stated'), v.imported_at, formatCount(v.entity_count)],
    note: `SHA-256 ${v.sha256}`,
  }));
  w.tableOr('No list version is recorded for this screening.', LIST_VERSION_COLUMNS, rows);
  if (screening.list_versions.length === 0) return;
  // A stale list is what an auditor must not miss: in bold.
  for (const sentence of staleListSentences(screening)) w.paragraph(sentence, screening.lists_stale ? { font: 'bold' } : {});
}
