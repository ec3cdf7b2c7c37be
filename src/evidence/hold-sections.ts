/**
 * The country holds of a screening in the evidence document: what the outcome says when a country
 * rule, not a name, held the subject, and each hold with the rule that made it. An auditor reads
 * why a subject with no name match was stopped without knowing the organization's rules.
 */
import { type CountryHold, describeHold } from '../screening/country-sanctions/holds.ts';
import type { EvidenceInput } from './evidence-input.ts';
import type { EvidenceWriter } from './evidence-writer.ts';

const RULE_WORDS: Record<CountryHold['rule'], string> = {
  'escalation.country_flags': "the organization's escalation rule names this regime (escalation.country_flags)",
  'country_holds.prohibited_regimes': 'a prohibited country or region holds by default (country_holds.prohibited_regimes)',
};

/**
 * The outcome in words, what screening found (the case's disposition is stated beside it): a
 * country hold with no name match says so, rather than "potential match";
 * a clear outcome says when the organization's clearing rules, not the scores, made it clear.
 */
export function outcomeWords(screening: EvidenceInput['screening']): string {
  if (screening.outcome === 'clear') {
    const ruleCleared = screening.auto_cleared_matches.some((m) => m.cleared_by?.kind === 'rule');
    return ruleCleared
      ? "clear: every match at or above its threshold was cleared by the organization's clearing rules"
      : 'clear: no list entry scored at or above the threshold';
  }
  const holds = screening.holds ?? [];
  if (screening.matches.length === 0 && holds.length > 0) return `no name match; held for the country rule ${holds.map(describeHold).join('; ')}`;
  return 'potential match'; // what was decided about it is the Disposition that follows
}

/** The section appears only when something holds; the outcome's fields say "none" otherwise. */
export function writeHolds(w: EvidenceWriter, { screening }: EvidenceInput) {
  const holds = screening.holds ?? [];
  if (holds.length === 0) return;
  w.heading('Country holds');
  w.paragraph(
    'The subject was held for a decision by these country rules, whatever the name matching found. The reason and citation of each flag are under Country flags.',
  );
  w.fields(holds.map((hold) => [describeHold(hold), RULE_WORDS[hold.rule] ?? hold.rule]));
}
