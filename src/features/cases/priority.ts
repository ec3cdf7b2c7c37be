/**
 * How urgent a case is, and whether it opens escalated, from what its screening found. Pure, and
 * explained: every step that raised the priority is kept as a reason a reviewer can read.
 *
 * The score sets the base (≥ 0.95 high, ≥ 0.88 medium, else low); a match on a list that blocks
 * outright (SDN, UN, Denied Persons, Entity List, ITAR debarment) raises it one step, and so does a
 * country under a prohibition (a comprehensive embargo, an ITAR §126.1 policy of denial). A case
 * the organization's escalation rules name is critical and opens ESCALATED. A country hold (a
 * case with no name match, or one beside it) is named as a reason of its own.
 */
import { type CountryHold, describeHold } from '../../screening/country-sanctions/holds.ts';
import type { AdjudicationRules, Priority } from './rules.ts';

/** Lists whose match means a prohibition, not a red flag to look into. */
const BLOCKING_LISTS = new Set(['OFAC_SDN', 'UN_SC', 'BIS_DPL', 'BIS_EL', 'DDTC_DEBARRED']);

export type CaseFacts = {
  /** The matches that alert (above their threshold, not suppressed). */
  matches: { list: string; programs: string[]; score: number }[];
  countryFlags: { regime: string; severity: string; country?: string; region?: string }[];
  /** The country flags the rules hold the subject for (src/screening/country-sanctions/holds.ts): each is a reason the case exists. */
  holds?: Pick<CountryHold, 'regime' | 'country' | 'region' | 'detail'>[];
};

export type Assessment = { priority: Priority; rank: number; reasons: string[]; escalate: boolean };

const RANK: Record<Priority, number> = { critical: 4, high: 3, medium: 2, low: 1 };
const BY_RANK: Priority[] = ['low', 'low', 'medium', 'high', 'critical'];

export const priorityRank = (priority: Priority): number => RANK[priority];

export function assessCase(facts: CaseFacts, rules: AdjudicationRules): Assessment {
  const score = Math.max(0, ...facts.matches.map((m) => m.score));
  const reasons: string[] = [];
  let rank = score >= 0.95 ? 3 : score >= 0.88 ? 2 : 1;
  reasons.push(facts.matches.length === 0 ? `no name match alerts: ${BY_RANK[rank]}` : `highest score ${score.toFixed(2)}: ${BY_RANK[rank]}`);

  const blocking = [...new Set(facts.matches.map((m) => m.list).filter((list) => BLOCKING_LISTS.has(list)))];
  if (blocking.length > 0) {
    rank += 1;
    reasons.push(`a match on ${blocking.join(', ')}, which prohibits outright: one step up`);
  }
  const prohibited = facts.countryFlags.filter((f) => f.severity === 'prohibited');
  if (prohibited.length > 0) {
    rank += 1;
    reasons.push(`${[...new Set(prohibited.map((f) => `${f.regime} (${f.region ?? f.country ?? '?'})`))].join(', ')}: one step up`);
  }

  reasons.push(...(facts.holds ?? []).map((hold) => `country rule: ${describeHold(hold)}`));

  const escalations = escalationReasons(facts, rules);
  if (escalations.length > 0) {
    reasons.push(...escalations.map((why) => `escalation rule: ${why}`));
    return { priority: 'critical', rank: RANK.critical, reasons, escalate: true };
  }
  const priority = BY_RANK[Math.min(rank, RANK.critical)] as Priority;
  return { priority, rank: RANK[priority], reasons, escalate: false };
}

/** The escalation rules a case's facts meet, in words (a determination's case asks too: cases/determination-case.ts). */
export function escalationReasons(facts: Pick<CaseFacts, 'matches' | 'countryFlags'>, rules: AdjudicationRules): string[] {
  const { lists, programs, country_flags: regimes } = rules.escalation;
  const reasons: string[] = [];
  const listHits = [...new Set(facts.matches.map((m) => m.list).filter((list) => lists.includes(list)))];
  if (listHits.length > 0) reasons.push(`a match on ${listHits.join(', ')}`);
  const programHits = [...new Set(facts.matches.flatMap((m) => m.programs).filter((program) => programs.includes(program)))];
  if (programHits.length > 0) reasons.push(`program ${programHits.join(', ')}`);
  const flagHits = [...new Set(facts.countryFlags.map((f) => f.regime).filter((regime) => (regimes as string[]).includes(regime)))];
  if (flagHits.length > 0) reasons.push(`country flag ${flagHits.join(', ')}`);
  return reasons;
}
