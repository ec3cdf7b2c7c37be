/**
 * An organization's adjudication rules: what alerts, what escalates on its own, which decisions
 * need a second reviewer, how long each priority may wait, and how long a cleared false positive
 * stays quiet. Pure: the checks a JSON schema cannot make, and the defaults an organization has
 * before it writes its own (version 0).
 */
import type { FieldError } from '../../http/errors.ts';
import type { CountryRegime } from '../../screening/country-sanctions/table.ts';
import { WATCHLIST_SLUG_PATTERN } from '../../screening/model.ts';
import { DEFAULT_THRESHOLD } from '../../screening/screening-index.ts';
import { type CountryHoldRules, completeCountryHolds, DEFAULT_COUNTRY_HOLDS } from './country-holds.ts';

export const PRIORITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** The qualifiers a clearing rule may name; each condition asks that the qualifier contradicts the entry. */
export const CLEARING_QUALIFIERS = ['date_of_birth', 'country', 'type'] as const;
export type ClearingQualifier = (typeof CLEARING_QUALIFIERS)[number];

/**
 * A named rule that clears, without a person, a match at or above its threshold whose qualifiers
 * meet every condition it names (and whose name score is at most `max_name_score`, when given).
 * The engine never clears on qualifiers by itself: this is how an organization chooses to.
 */
export type ClearingRule = {
  name: string;
  description?: string;
  when: Partial<Record<ClearingQualifier, 'contradicts'>>;
  max_name_score?: number;
};

/** The severities of the organization's watchlist entries (src/features/watchlists/model.ts), and what a match on one does. */
export const WATCHLIST_SEVERITIES = ['red', 'orange', 'yellow'] as const;
export type WatchlistSeverity = (typeof WATCHLIST_SEVERITIES)[number];
/**
 * - `deny`: the case opens DENIED, decided by the rules (with four-eyes on DENIED, the rules'
 *   DENIED waits for one person to confirm it, and the subject is held meanwhile).
 * - `hold`: the case opens OPEN and the subject waits for a decision, as on a public-list match.
 * - `review`: the case opens, and the subject is not held (a visitor is checked in).
 */
export const WATCHLIST_ACTIONS = ['deny', 'hold', 'review'] as const;
export type WatchlistAction = (typeof WATCHLIST_ACTIONS)[number];

/** What a stored ownership determination's status may be (src/features/ownership/check-status.ts decides it). */
export const OWNERSHIP_STATUSES = ['blocked', 'restricted', 'indeterminate', 'clear'] as const;
export type OwnershipStatus = (typeof OWNERSHIP_STATUSES)[number];

/** What an ownership check does under the rules: whether it is kept on record, and which determinations open a case. */
export type OwnershipRules = {
  /** `always`: every check is stored; `on_request`: only a check sent with `store: true`. */
  store: 'always' | 'on_request';
  /** A stored determination with one of these statuses opens (or reopens) an adjudication case. */
  open_case_on: OwnershipStatus[];
};

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
  /** Tried in order; the first whose conditions a match meets clears it. */
  clearing_rules: ClearingRule[];
  /** What a match on one of the organization's watchlists does, by the entry's severity. */
  watchlists: Record<WatchlistSeverity, WatchlistAction>;
  ownership: OwnershipRules;
};

export type VersionedRules = { version: number; rules: AdjudicationRules; created_at: string | null; created_by: string | null };

export const DEFAULT_RULES: AdjudicationRules = {
  thresholds: { match: DEFAULT_THRESHOLD, lists: {}, auto_clear_band: 0 },
  escalation: { lists: [], programs: [], country_flags: [] },
  country_holds: DEFAULT_COUNTRY_HOLDS,
  four_eyes: { denied: false, cleared_min_score: null, cleared_escalated: false },
  sla_hours: { critical: 4, high: 24, medium: 72, low: 168 },
  suppressions: { enabled: true, expire_after_days: 365 },
  clearing_rules: [],
  watchlists: { red: 'deny', orange: 'hold', yellow: 'review' },
  ownership: { store: 'on_request', open_case_on: ['blocked', 'restricted', 'indeterminate'] },
};

export const DEFAULT_VERSION: VersionedRules = { version: 0, rules: DEFAULT_RULES, created_at: null, created_by: null };

/** The lists a rule may name even when they are not loaded now: every list Gatehouse reads. */
export const KNOWN_LISTS = ['OFAC_SDN', 'OFAC_CONS', 'UN_SC', 'BIS_DPL', 'BIS_EL', 'BIS_UVL', 'BIS_MEU', 'DDTC_DEBARRED', 'STATE_ISN', 'UK_FCDO', 'EU_FSF'];

/** The lowest threshold a rule may set, band included: below it nearly every name alerts. */
export const LOWEST_THRESHOLD = 0.5;

/** A rules body as sent: any section, and any field of a section, may be left out. */
export type RulesBody = { [S in Exclude<keyof AdjudicationRules, 'clearing_rules'>]?: Partial<AdjudicationRules[S]> } & { clearing_rules?: ClearingRule[] };

/** The whole rule set from a body: every section or field left out takes its default. */
export function completeRules(body: RulesBody): AdjudicationRules {
  const d = DEFAULT_RULES;
  return {
    thresholds: { ...d.thresholds, ...body.thresholds, lists: listKeys(body.thresholds?.lists ?? d.thresholds.lists) },
    escalation: {
      lists: unique((body.escalation?.lists ?? d.escalation.lists).map(ruleListCode)),
      programs: unique(body.escalation?.programs ?? d.escalation.programs),
      country_flags: unique(body.escalation?.country_flags ?? d.escalation.country_flags),
    },
    country_holds: completeCountryHolds(body.country_holds),
    four_eyes: { ...d.four_eyes, ...body.four_eyes },
    sla_hours: { ...d.sla_hours, ...body.sla_hours },
    suppressions: { ...d.suppressions, ...body.suppressions },
    clearing_rules: (body.clearing_rules ?? d.clearing_rules).map((rule) => ({ ...rule, name: rule.name.trim() })),
    watchlists: { ...d.watchlists, ...body.watchlists },
    ownership: { ...d.ownership, ...body.ownership, open_case_on: unique(body.ownership?.open_case_on ?? d.ownership.open_case_on) },
  };
}

/** What the schema cannot check: list codes that exist, thresholds that stay sane with their band, SLAs in priority order. */
export function ruleProblems(rules: AdjudicationRules, loadedLists: readonly string[]): FieldError[] {
  const problems: FieldError[] = [];
  const known = new Set([...KNOWN_LISTS, ...loadedLists]);
  const unknownList = (code: string, pointer: string) => {
    if (!known.has(code) && !WATCHLIST_CODE.test(code))
      problems.push({ pointer, detail: `${code} is not a list Gatehouse reads; known: ${[...known].sort().join(', ')}, or a watchlist's ORG:<slug>` });
  };
  for (const code of Object.keys(rules.thresholds.lists)) unknownList(code, `/thresholds/lists/${code}`);
  rules.escalation.lists.forEach((code, i) => unknownList(code, `/escalation/lists/${i}`));

  const band = rules.thresholds.auto_clear_band;
  const lowest = Math.min(rules.thresholds.match, ...Object.values(rules.thresholds.lists));
  if (lowest - band < LOWEST_THRESHOLD - 1e-9) {
    problems.push({
      pointer: '/thresholds/auto_clear_band',
      detail: `reaches ${round(lowest - band)} below the lowest threshold ${lowest}; threshold minus band must stay at or above ${LOWEST_THRESHOLD}`,
    });
  }

  problems.push(...clearingRuleProblems(rules.clearing_rules));

  PRIORITIES.slice(1).forEach((priority, i) => {
    const higher = PRIORITIES[i] as Priority;
    if (rules.sla_hours[priority] < rules.sla_hours[higher]) {
      problems.push({
        pointer: `/sla_hours/${priority}`,
        detail: `is ${rules.sla_hours[priority]} h, shorter than ${higher} (${rules.sla_hours[higher]} h): a lower priority may not be due sooner`,
      });
    }
  });
  return problems;
}

/** Names unique (ignoring case) and not blank, and at least one condition each; the schema checks the rest. */
function clearingRuleProblems(rules: ClearingRule[]): FieldError[] {
  const problems: FieldError[] = [];
  const seen = new Map<string, number>();
  rules.forEach((rule, i) => {
    const key = rule.name.toLowerCase();
    if (key === '') problems.push({ pointer: `/clearing_rules/${i}/name`, detail: 'must not be blank' });
    else if (seen.has(key))
      problems.push({
        pointer: `/clearing_rules/${i}/name`,
        detail: `"${rule.name}" is already the name of clearing rule ${seen.get(key)}: each rule's name is its own`,
      });
    else seen.set(key, i);
    if (Object.keys(rule.when).length === 0) {
      problems.push({ pointer: `/clearing_rules/${i}/when`, detail: `names no condition: give at least one of ${CLEARING_QUALIFIERS.join(', ')}` });
    }
  });
  return problems;
}

/** The threshold a match on `list` must reach to alert. */
export const thresholdFor = (rules: AdjudicationRules, list: string): number => rules.thresholds.lists[list] ?? rules.thresholds.match;

const unique = <T>(values: T[]): T[] => [...new Set(values)];
/**
 * A watchlist's list code, `ORG:<slug>`: a rule may name one whether or not it exists yet, as it
 * may name a public list not loaded now.
 */
const WATCHLIST_CODE = new RegExp(`^ORG:${WATCHLIST_SLUG_PATTERN}$`);
/** A list code as the rules keep it: a public list's in capitals, a watchlist's with its slug as written (slugs are lower case). */
const ruleListCode = (code: string) => (/^org:/i.test(code) ? `ORG:${code.slice(4)}` : code.toUpperCase());
const listKeys = (record: Record<string, number>) => Object.fromEntries(Object.entries(record).map(([k, v]) => [ruleListCode(k), v]));
const round = (n: number) => Math.round(n * 1e6) / 1e6;
