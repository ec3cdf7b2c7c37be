/**
 * Everything beyond the name that moves a match's score: date of birth, country, identifiers,
 * the kind of list name matched and the entity's type. Each is corroboration, contradiction or
 * unknown, and unknown never moves the score — lists have gaps (thousands of OFAC addresses have
 * no country, most organizations have no date), and a gap is not evidence.
 *
 * Corroboration closes part of the remaining distance to 1 (score + k·(1 − score)), so it can never
 * push a score past 1 and raises weak and strong matches in the same order. Contradiction
 * subtracts. Both are monotone: adding a contradicting fact never raises a score, adding a
 * corroborating one never lowers it.
 */
import type { QualifierExplanation, SubjectQuery } from '../match-types.ts';
import type { DateOfBirth, ListEntity, NameKind, PartialDate } from '../model.ts';
import { IDENTIFIER_CORROBORATION, identifierVerdict } from './identifiers.ts';

export type Qualified = { score: number; qualifiers: QualifierExplanation[] };

const CORROBORATION = { exactDate: 0.5, year: 0.2, country: 0.15 } as const;
const CONTRADICTION = { yearDisjoint: 0.25, dateDiffers: 0.1, countryDisjoint: 0.1 } as const;
const WEAK_ALIAS_FACTOR = 0.9;
const CRAFT_FOR_ORGANIZATION_FACTOR = 0.9;

type Verdict = { effect: QualifierExplanation['effect']; strength: number; detail: string };

export function qualify(nameScore: number, query: SubjectQuery, entity: ListEntity, nameKind: NameKind): Qualified {
  const qualifiers: QualifierExplanation[] = [];
  let score = nameScore;
  const scale = (factor: number, factorName: QualifierExplanation['factor'], detail: string) => {
    const next = score * factor;
    qualifiers.push({ factor: factorName, effect: 'contradicts', contribution: round(next - score), detail });
    score = next;
  };
  const apply = (factor: QualifierExplanation['factor'], verdict: Verdict | undefined) => {
    if (!verdict) return;
    const next =
      verdict.effect === 'corroborates' ? score + verdict.strength * (1 - score) : verdict.effect === 'contradicts' ? score - verdict.strength : score;
    qualifiers.push({ factor, effect: verdict.effect, contribution: round(next - score), detail: verdict.detail });
    score = next;
  };

  if (nameKind === 'weak_alias') scale(WEAK_ALIAS_FACTOR, 'name_kind', 'matched a weak a.k.a., which the list gives to confirm a hit, not to screen on');
  if (query.kind === 'organization' && (entity.type === 'vessel' || entity.type === 'aircraft')) {
    scale(CRAFT_FOR_ORGANIZATION_FACTOR, 'type', `an organization was screened and the entry is a ${entity.type}`);
  }
  apply('identifier', identifierVerdict(query.identifiers ?? [], entity));
  if (entity.type === 'person') apply('date_of_birth', dateOfBirthVerdict(query.dateOfBirth, entity.datesOfBirth));
  apply('country', countryVerdict(query.countries ?? [], entity.countries));
  return { score: Math.min(1, Math.max(0, score)), qualifiers };
}

/** The most the qualifiers this query carries could make of a name score. */
export function scoreCeiling(query: SubjectQuery): (nameScore: number) => number {
  let remaining = 1;
  if (query.dateOfBirth) remaining *= 1 - CORROBORATION.exactDate;
  if (query.countries && query.countries.length > 0) remaining *= 1 - CORROBORATION.country;
  if (query.identifiers && query.identifiers.length > 0) remaining *= 1 - IDENTIFIER_CORROBORATION;
  return (nameScore) => 1 - (1 - nameScore) * remaining;
}

function countryVerdict(countries: string[], listed: string[]): Verdict | undefined {
  if (countries.length === 0 || listed.length === 0) return { effect: 'unknown', strength: 0, detail: countries.length === 0 ? 'no country given' : 'the entry has no country' };
  const shared = countries.filter((c) => listed.includes(c));
  if (shared.length > 0) return { effect: 'corroborates', strength: CORROBORATION.country, detail: `country ${shared.join(', ')} is on the entry` };
  return { effect: 'contradicts', strength: CONTRADICTION.countryDisjoint, detail: `country ${countries.join(', ')} is not among the entry's (${listed.join(', ')})` };
}

const formatDate = (d: PartialDate) => [d.year, d.month, d.day].filter((n) => n !== undefined).map((n, i) => (i === 0 ? String(n) : String(n).padStart(2, '0'))).join('-');

/** Years the listed date of birth allows: a circa date ±3, a range its span, an exact date ±1 for data-entry slips. */
function yearSpan(listed: DateOfBirth): [number, number] {
  if (listed.until) return [listed.year, listed.until.year];
  const slack = listed.circa ? 3 : listed.month === undefined ? 1 : 0;
  return [listed.year - slack, listed.year + slack];
}

function sameDay(a: PartialDate, b: PartialDate): boolean {
  if (a.month === undefined || a.day === undefined || b.month === undefined || b.day === undefined) return false;
  // Day and month swapped is the commonest way one date is written two ways.
  return (a.month === b.month && a.day === b.day) || (a.month === b.day && a.day === b.month);
}

function dateOfBirthVerdict(given: PartialDate | undefined, listed: DateOfBirth[]): Verdict | undefined {
  if (!given) return { effect: 'unknown', strength: 0, detail: 'no date of birth given' };
  if (listed.length === 0) return { effect: 'unknown', strength: 0, detail: 'the entry has no date of birth' };
  const inSpan = listed.filter((d) => {
    const [from, to] = yearSpan(d);
    return given.year >= from && given.year <= to;
  });
  const shown = listed.map((d) => (d.until ? `${d.year} to ${d.until.year}` : `${d.circa ? 'circa ' : ''}${formatDate(d)}`)).join(', ');
  if (inSpan.length === 0) {
    return { effect: 'contradicts', strength: CONTRADICTION.yearDisjoint, detail: `born ${formatDate(given)}; the entry gives ${shown}` };
  }
  const exact = inSpan.find((d) => d.year === given.year && !d.circa && sameDay(d, given));
  if (exact) return { effect: 'corroborates', strength: CORROBORATION.exactDate, detail: `date of birth ${formatDate(given)} is on the entry` };
  const fullyKnownAndDifferent = inSpan.every((d) => d.day !== undefined && given.day !== undefined && !d.circa);
  if (fullyKnownAndDifferent) {
    return { effect: 'contradicts', strength: CONTRADICTION.dateDiffers, detail: `born ${formatDate(given)}; the entry gives ${shown}` };
  }
  return { effect: 'corroborates', strength: CORROBORATION.year, detail: `year of birth ${given.year} fits the entry's ${shown}` };
}

const round = (n: number) => Math.round(n * 1000) / 1000;
