/**
 * An organization's adjudication rules: what alerts, what escalates on its own, which decisions
 * need a second reviewer, how long each priority may wait, and how long a cleared false positive
 * stays quiet. Pure: the checks a JSON schema cannot make, and the defaults an organization has
 * before it writes its own (version 0).
 */
import type { FieldError } from '../../http/errors.ts';
import type { CountryRegime } from '../../screening/country-sanctions/table.ts';
import { DEFAULT_THRESHOLD } from '../../screening/screening-index.ts';
import { completeCountryHolds, type CountryHoldRules, DEFAULT_COUNTRY_HOLDS } from './country-holds.ts';

export const PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Priority = (typeof PRIORITIES)[number];

export type AdjudicationRules = {
  thresholds: {
    /** The score at which a match becomes a potential match. */
    match: number;
    /** Per-list overrides of `match`. */
    lists: Record<string, number>;
    /** Matches this far below their threshold are kept in the record as auto-cleared, not alerted. */
    auto_clear_band: number;
  };
  /** A case with a match on one of these lists or programs, or with one of these country flags, opens ESCALATED. */
  escalation: { lists: string[]; programs: string[]; country_flags: CountryRegime[] };
  /** Which screenings a country flag holds with no name match (country-holds.ts). */
  country_holds: CountryHoldRules;
  four_eyes: {
    /** Every DENIED needs a second reviewer. */
    denied: boolean;
    /** Clearing a case whose score is at least this needs a second reviewer (null: never). */
    cleared_min_score: number | null;
    /** Clearing an escalated case needs a second reviewer. */
    cleared_escalated: boolean;
  };
  sla_hours: Record<Priority, number>;
  suppressions: { enabled: boolean; expire_after_days: number | null };
};

export type VersionedRules = { version: number; rules: AdjudicationRules; created_at: string | null; created_by: string | null };

export const DEFAULT_RULES: AdjudicationRules = {
  thresholds: { match: DEFAULT_THRESHOLD, lists: {}, auto_clear_band: 0 },
  escalation: { lists: [], programs: [], country_flags: [] },
  country_holds: DEFAULT_COUNTRY_HOLDS,
  four_eyes: { denied: false, cleared_min_score: null, cleared_escalated: false },
  sla_hours: { critical: 4, high: 24, medium: 72, low: 168 },
  suppressions: { enabled: true, expire_after_days: 365 },
};

export const DEFAULT_VERSION: VersionedRules = { version: 0, rules: DEFAULT_RULES, created_at: null, created_by: null };

/** The lists a rule may name even when they are not loaded now: every list Gatehouse reads. */
export const KNOWN_LISTS = ['OFAC_SDN', 'OFAC_CONS', 'UN_SC', 'BIS_DPL', 'BIS_EL', 'BIS_UVL', 'BIS_MEU', 'DDTC_DEBARRED', 'STATE_ISN', 'UK_FCDO'];

/** The lowest threshold a rule may set, band included: below it nearly every name alerts. */
export const LOWEST_THRESHOLD = 0.5;

/** A rules body as sent: any section, and any field of a section, may be left out. */
export type RulesBody = { [S in keyof AdjudicationRules]?: Partial<AdjudicationRules[S]> };

/** The whole rule set from a body: every section or field left out takes its default. */
export function completeRules(body: RulesBody): AdjudicationRules {
  const d = DEFAULT_RULES;
  return {
    thresholds: { ...d.thresholds, ...body.thresholds, lists: upperKeys(body.thresholds?.lists ?? d.thresholds.lists) },
    escalation: {
      lists: unique((body.escalation?.lists ?? d.escalation.lists).map((l) => l.toUpperCase())),
      programs: unique(body.escalation?.programs ?? d.escalation.programs),
      country_flags: unique(body.escalation?.country_flags ?? d.escalation.country_flags),
    },
    country_holds: completeCountryHolds(body.country_holds),
    four_eyes: { ...d.four_eyes, ...body.four_eyes },
    sla_hours: { ...d.sla_hours, ...body.sla_hours },
    suppressions: { ...d.suppressions, ...body.suppressions },
  };
}

/** What the schema cannot check: list codes that exist, thresholds that stay sane with their band, SLAs in priority order. */
export function ruleProblems(rules: AdjudicationRules, loadedLists: readonly string[]): FieldError[] {
  const problems: FieldError[] = [];
  const known = new Set([...KNOWN_LISTS, ...loadedLists]);
  const unknownList = (code: string, pointer: string) => {
    if (!known.has(code)) problems.push({ pointer, detail: `${code} is not a list Gatehouse reads; known: ${[...known].sort().join(', ')}` });
  };
  for (const code of Object.keys(rules.thresholds.lists)) unknownList(code, `/thresholds/lists/${code}`);
  rules.escalation.lists.forEach((code, i) => unknownList(code, `/escalation/lists/${i}`));

  const band = rules.thresholds.auto_clear_band;
  const lowest = Math.min(rules.thresholds.match, ...Object.values(rules.thresholds.lists));
  if (lowest - band < LOWEST_THRESHOLD - 1e-9) {
    problems.push({ pointer: '/thresholds/auto_clear_band', detail: `reaches ${round(lowest - band)} below the lowest threshold ${lowest}; threshold minus band must stay at or above ${LOWEST_THRESHOLD}` });
  }

  PRIORITIES.slice(1).forEach((priority, i) => {
    const higher = PRIORITIES[i] as Priority;
    if (rules.sla_hours[priority] < rules.sla_hours[higher]) {
      problems.push({ pointer: `/sla_hours/${priority}`, detail: `is ${rules.sla_hours[priority]} h, shorter than ${higher} (${rules.sla_hours[higher]} h): a lower priority may not be due sooner` });
    }
  });
  return problems;
}

/** The threshold a match on `list` must reach to alert. */
export const thresholdFor = (rules: AdjudicationRules, list: string): number => rules.thresholds.lists[list] ?? rules.thresholds.match;

const unique = <T>(values: T[]): T[] => [...new Set(values)];
const upperKeys = (record: Record<string, number>) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k.toUpperCase(), v]));
const round = (n: number) => Math.round(n * 1e6) / 1e6;
