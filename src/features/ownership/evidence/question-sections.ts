/**
 * The first part of the ownership evidence: whose determination this is, and the question it
 * answered: which target, on which date, asked by whom and when, over how large a structure, and
 * whether the parties' names were screened against the lists and at what threshold.
 */
import { formatCount, formatScore } from '../../../evidence/evidence-format.ts';
import type { EvidenceWriter } from '../../../evidence/evidence-writer.ts';
import type { OwnershipEvidenceInput } from './ownership-evidence-input.ts';
import { counted, partiesOf } from './ownership-words.ts';

export function writeTitle(w: EvidenceWriter, { organization, check }: OwnershipEvidenceInput) {
  w.title('Ownership determination evidence');
  w.fields([
    ['Organization', organization.name],
    ['Organization id', organization.id],
    ['Determination id', check.id],
  ]);
}

export function writeQuestion(w: EvidenceWriter, { check }: OwnershipEvidenceInput) {
  const { request, answer } = check;
  const parties = partiesOf(check);
  const target = parties.get(answer.target);
  w.heading('The question');
  w.fields([
    ['Target', parties.name(answer.target)],
    ['Target type', [target?.type ?? 'not given', target?.country ? `country ${target.country.toUpperCase()}` : 'country not given'].join(', ')],
    ['As of', `${answer.as_of} (a US Eastern calendar date: the lists and stakes in effect on that day)`],
    ['Asked by', `${check.asked_by.type} ${check.asked_by.id}`],
    ['Checked at (UTC)', check.checked_at],
    ['Parties', partyCounts(request.entities)],
    ['Stakes', stakeCounts(request.ownerships)],
    ['Names screened', screeningWords(answer.screening)],
    ...(check.supersedes ? [['Re-evaluates', `determination ${check.supersedes} (see Integrity)`] as [string, string]] : []),
  ]);
}

function partyCounts(entities: OwnershipEvidenceInput['check']['request']['entities']): string {
  const persons = entities.filter((e) => e.type === 'person').length;
  const designated = entities.filter((e) => (e.designations ?? []).length > 0).length;
  return `${counted(entities.length, 'party', 'parties')}: ${counted(persons, 'natural person', 'natural persons')}, ${counted(entities.length - persons, 'entity', 'entities')}; ${formatCount(designated)} with designations given`;
}

function stakeCounts(ownerships: OwnershipEvidenceInput['check']['request']['ownerships']): string {
  const unknown = ownerships.filter((o) => o.percent === null).length;
  const other = ownerships.filter((o) => o.kind !== undefined && o.kind !== 'ownership').length;
  const dated = ownerships.filter((o) => o.start_date !== undefined || o.end_date !== undefined).length;
  const details = [
    unknown > 0 ? `${formatCount(unknown)} of unknown size` : '',
    other > 0 ? `${formatCount(other)} not ownership (control, director, …), never counted` : '',
    dated > 0 ? `${formatCount(dated)} held between dates` : '',
  ].filter(Boolean);
  return `${counted(ownerships.length, 'relationship', 'relationships')} given${details.length > 0 ? `: ${details.join('; ')}` : ''}`;
}

function screeningWords(screening: OwnershipEvidenceInput['check']['answer']['screening']): string {
  if (!screening.performed) return 'no: only the designations given in the request were used (screen_names false)';
  const threshold = screening.threshold === null ? 'not recorded' : formatScore(screening.threshold);
  return (
    `yes, at the match threshold ${threshold}: ${counted(screening.entities_screened, 'party', 'parties')} without designations screened ` +
    `(${counted(screening.names_screened, 'distinct name', 'distinct names')}), ${formatCount(screening.entities_matched)} matched a list entry, ` +
    `${formatCount(screening.entities_designated)} designated by a match at or above the threshold`
  );
}
