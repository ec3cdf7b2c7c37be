/**
 * A screening as it is stored and answered: what was screened, its matches, those cleared without
 * a person and what cleared them, and the thresholds they were held to. Its own file because the
 * screening is built (build-screening.ts) and its matches cleared (auto-clearing.ts) in two files,
 * the first calling the second, and the store and the routes read it too.
 */
import type { StaleListRecord } from '../../lists/stale-at-screening.ts';
import type { CountryHold } from '../../screening/country-sanctions/holds.ts';
import type { CountryFlag } from '../../screening/country-sanctions/lookup.ts';
import type { SubjectIdentifier } from '../../screening/identifier-types.ts';
import type { ScreeningMatch } from '../../screening/match-types.ts';
import type { AdjudicationRules } from '../cases/rules.ts';
import type { Severity } from '../watchlists/model.ts';

export type ScreeningSource = 'prescreen' | 'vendor' | 'checkin' | 'workforce' | 'rescreen';

/** What was screened, as the caller gave it (trimmed, country codes upper-cased). */
export type ScreeningInput = {
  subject?: string;
  company?: string;
  country?: string;
  type: 'person' | 'organization' | 'vessel';
  date_of_birth?: string;
  nationality?: string;
  address?: string;
  aliases?: string[];
  /** The subject's identifiers; the company's when only a company is screened. */
  identifiers?: SubjectIdentifier[];
  reference?: string;
  lists?: string[];
  metadata?: Record<string, unknown>;
};

export type MatchRecord = {
  id: string;
  list: string;
  entry_id: string;
  entry_name: string;
  entry_type: string;
  /** SHA-256 of the list entry's content as imported: a suppression holds only while it is unchanged. */
  entry_sha256: string;
  matched_name: string;
  name_kind: string;
  field: 'subject' | 'company' | 'alias';
  score: number;
  explanation: {
    summary: string;
    /** Present when an identifier, not the name, found the entry. */
    found_by_identifier?: string;
    query_name: string;
    list_name: string;
    name_kind: string;
    name_score: number;
    tokens: ScreeningMatch['explanation']['tokens'];
    qualifiers: ScreeningMatch['explanation']['qualifiers'];
  };
  programs: string[];
  list_version: string;
  /** The threshold this match was held to (the organization's, for its list). */
  threshold: number;
  /** The suppression that covers this match (an earlier false-positive decision), if any: it alerts no one. */
  suppressed_by: string | null;
  /** On an auto-cleared match: what cleared it (the band, a clearing rule or a suppression) and why. */
  cleared_by?: ClearedBy;
  /** On a match on one of the organization's watchlists (list `ORG:<slug>`): the watchlist, and the entry's severity and reason. */
  watchlist?: WatchlistOfMatch;
};

export type WatchlistOfMatch = { id: string; slug: string; name: string; severity: Severity; reason: string };

export type ListVersionRecord = { list: string; version_id: string; published_on: string | null; imported_at: string; sha256: string; entity_count: number };

export type ScreeningRecord = {
  id: string;
  object: 'screening';
  source: ScreeningSource;
  outcome: 'clear' | 'potential_match';
  score: number;
  input: ScreeningInput;
  matches: MatchRecord[];
  /** Matches cleared without a person (the band, a clearing rule, a suppression), each with `cleared_by`: recorded, never alerted. */
  auto_cleared_matches: MatchRecord[];
  country_flags: CountryFlag[];
  /** Country flags the organization's rules hold the subject for, match or no match: each makes the outcome `potential_match` and opens a case. */
  holds: CountryHold[];
  list_versions: ListVersionRecord[];
  /**
   * Whether any list consulted was past its maximum age when the screening ran, and which.
   * Absent in screenings recorded before this was kept: not recorded, which is not "no".
   */
  lists_stale?: boolean;
  stale_lists?: StaleListRecord[];
  thresholds: Thresholds;
  reference: string | null;
  created_at: string;
  request_id: string;
  actor: { kind: string; id: string };
};

/** The organization's thresholds as a screening records them, with the version of the rules they came from. */
export type Thresholds = AdjudicationRules['thresholds'] & { rules_version: number };

/** What cleared a match without a person, and why (auto-clearing.ts decides it): the match's `cleared_by`. */
export type ClearedBy = {
  kind: 'band' | 'rule' | 'suppression';
  /** The clearing rule's name (kind `rule`). */
  rule?: string;
  /** The version of the organization's adjudication rules that cleared it. */
  rules_version: number;
  /** The suppression that covers it (kind `suppression`). */
  suppression_id?: string;
  reason: string;
};
