/**
 * Everything beyond the name that moves a match's score: date of birth, country, identifiers,
 * the kind of list name matched and the entity's type. Each is corroboration, contradiction,
 * neutral (close enough to be a slip, see date-of-birth.ts) or unknown, and unknown never moves the
 * score — lists have gaps (thousands of OFAC addresses have no country, most organizations have no
 * date), and a gap is not evidence.
 *
 * Corroboration closes part of the remaining distance to 1 (score + k·(1 − score)), so it can never
 * push a score past 1 and raises weak and strong matches in the same order. Contradiction
 * subtracts. Both are monotone: adding a contradicting fact never raises a score, adding a
 * corroborating one never lowers it.
 *
 * A contradiction lowers a score (and so the case's priority) but never clears a name by itself:
 * a name scoring at or above the alert threshold is held there, because a listed party who gives
 * another date of birth or country is still the listed party's name. Clearing on qualifiers is the
 * organization's choice, made in its adjudication rules, not the engine's.
 */
import type { QualifierExplanation, SubjectQuery } from '../match-types.ts';
import type { ListEntity, NameKind } from '../model.ts';
import { scoreInWords } from '../score-words.ts';
import { DATE_OF_BIRTH, dateOfBirthVerdict } from './date-of-birth.ts';
import { IDENTIFIER_CORROBORATION, identifierVerdict } from './identifiers.ts';
import type { Verdict } from './verdict.ts';

export type Qualified = { score: number; qualifiers: QualifierExplanation[] };

const CORROBORATION = { country: 0.15 } as const;
const CONTRADICTION = { countryDisjoint: 0.1 } as const;
const WEAK_ALIAS_FACTOR = 0.9;
const CRAFT_FOR_ORGANIZATION_FACTOR = 0.9;

/** The facts about the subject that can disagree with the entry: what the hold names. */
const DISAGREEING: Partial<Record<QualifierExplanation['factor'], string>> = { date_of_birth: 'date of birth', country: 'country', type: 'type' };

export function qualify(nameScore: number, query: SubjectQuery, entity: ListEntity, nameKind: NameKind, alertThreshold: number): Qualified {
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
  // The name as matched, before anything about the subject is compared: what the hold protects.
  const named = score;
  if (query.kind === 'organization' && (entity.type === 'vessel' || entity.type === 'aircraft')) {
    scale(CRAFT_FOR_ORGANIZATION_FACTOR, 'type', `an organization was screened and the entry is a ${entity.type}`);
  }
  apply('identifier', identifierVerdict(query.identifiers ?? [], entity));
  if (entity.type === 'person') apply('date_of_birth', dateOfBirthVerdict(query.dateOfBirth, entity.datesOfBirth));
  apply('country', countryVerdict(query.countries ?? [], entity.countries));
  if (named >= alertThreshold && score < alertThreshold) {
    const disagreeing = qualifiers.filter((q) => q.effect === 'contradicts' && DISAGREEING[q.factor]).map((q) => DISAGREEING[q.factor]);
    qualifiers.push({
      factor: 'alert_threshold',
      effect: 'holds',
      contribution: round(alertThreshold - score),
      detail:
        `held at the alert threshold ${scoreInWords(alertThreshold)} (the qualifiers gave ${score.toFixed(2)}): ` +
        `${named === 1 ? 'an exact' : 'a near-exact'} name (${named.toFixed(2)}) is not cleared by a disagreeing ${disagreeing.join(' and ')} alone; ` +
        "the organization's clearing rules may clear it",
    });
    score = alertThreshold;
  }
  return { score: Math.min(1, Math.max(0, score)), qualifiers };
}

/** The most the qualifiers this query carries could make of a name score. */
export function scoreCeiling(query: SubjectQuery): (nameScore: number) => number {
  let remaining = 1;
  if (query.dateOfBirth) remaining *= 1 - DATE_OF_BIRTH.exact;
  if (query.countries && query.countries.length > 0) remaining *= 1 - CORROBORATION.country;
  if (query.identifiers && query.identifiers.length > 0) remaining *= 1 - IDENTIFIER_CORROBORATION;
  return (nameScore) => 1 - (1 - nameScore) * remaining;
}

function countryVerdict(countries: string[], listed: string[]): Verdict | undefined {
  if (countries.length === 0 || listed.length === 0)
    return { effect: 'unknown', strength: 0, detail: countries.length === 0 ? 'no country given' : 'the entry has no country' };
  const shared = countries.filter((c) => listed.includes(c));
  if (shared.length > 0) return { effect: 'corroborates', strength: CORROBORATION.country, detail: `country ${shared.join(', ')} is on the entry` };
  return {
    effect: 'contradicts',
    strength: CONTRADICTION.countryDisjoint,
    detail: `country ${countries.join(', ')} is not among the entry's (${listed.join(', ')})`,
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;
