/**
 * What the engine is asked and what it answers. The HTTP features, the evaluation and the
 * benchmarks all speak these types; the index, the scorer and the explainer produce them.
 */
import type { SubjectIdentifier } from './identifier-types.ts';
import type { EntityType, ListCode, ListEntity, ListedName, NameKind, PartialDate } from './model.ts';

/**
 * `any` screens against every entity type (a vendor whose kind the caller does not know); `vessel`
 * against vessels only.
 */
export type SubjectKind = 'person' | 'organization' | 'vessel' | 'any';

export type SubjectQuery = {
  name: string;
  kind: SubjectKind;
  /** Other names of the same subject; each is screened, the best match per entity wins. */
  aliases?: string[];
  /** ISO 3166-1 alpha-2 countries known for the subject (residence, nationality, citizenship). */
  countries?: string[];
  dateOfBirth?: PartialDate;
  /**
   * Identifiers the subject carries (passport, IMO, tax id). One equal to a listed identifier
   * corroborates a name match strongly; a distinctive one finds the entry whatever the name.
   */
  identifiers?: SubjectIdentifier[];
  /** Restrict the screening to these lists; all loaded lists when absent. */
  lists?: ListCode[];
};

export type ScreeningOptions = {
  /**
   * The alert threshold: one score for every list, or each list's own. A name scoring at or above
   * it is never taken below it by a disagreeing date of birth, country or type alone (the score is
   * held there, and the explanation says so). Defaults to DEFAULT_THRESHOLD.
   */
  threshold?: number | ((list: ListCode) => number);
  /**
   * Matches are returned down to this score (an auto-clear band below the alert threshold, say);
   * when absent, down to each match's alert threshold.
   */
  reportFloor?: number;
  /** At most this many matches, best first. */
  limit?: number;
  /**
   * Only entities this accepts are matched (entries the caller knows are superseded, removed or
   * expired): they take no place among the `limit` returned.
   */
  accept?: (entity: ListEntity) => boolean;
};

/** How one query token was paired with one list token. */
export type TokenMatchKind =
  | 'exact'
  | 'phonetic'
  | 'nickname'
  | 'word_form'
  | 'transliterated'
  | 'typo'
  | 'initial'
  | 'merged'
  | 'legal_form'
  | 'unmatched_query'
  | 'unmatched_list';

export type TokenExplanation = {
  query?: string;
  list?: string;
  how: TokenMatchKind;
  similarity: number;
  /** The token's weight in the name score (rare tokens weigh more). */
  weight: number;
};

/** `alert_threshold`: the hold that keeps an exact or near-exact name at the alert threshold. */
export type QualifierFactor = 'date_of_birth' | 'country' | 'type' | 'identifier' | 'name_kind' | 'alert_threshold';

/**
 * - `corroborates` / `contradicts`: the fact agrees / disagrees with the entry.
 * - `neutral`: compared, and close enough to be a data-entry slip (a year off by two, a calendar
 *   conversion), so it neither supports nor counts against the match.
 * - `unknown`: one side does not say.
 * - `holds`: the score was held at the alert threshold (factor `alert_threshold`).
 */
export type QualifierEffect = 'corroborates' | 'contradicts' | 'neutral' | 'unknown' | 'holds';

export type QualifierExplanation = {
  factor: QualifierFactor;
  effect: QualifierEffect;
  /** The change this factor made to the score. */
  contribution: number;
  detail: string;
};

export type MatchExplanation = {
  queryName: string;
  listName: string;
  nameKind: NameKind;
  nameScore: number;
  tokens: TokenExplanation[];
  qualifiers: QualifierExplanation[];
  summary: string;
  /** When an identifier, not the name, found the entry: which one, and the entry's identifier it equals. */
  foundByIdentifier?: string;
};

export type ScreeningMatch = {
  entity: ListEntity;
  score: number;
  matchedName: ListedName;
  /** The subject's name (or alias) that matched. */
  queryName: string;
  explanation: MatchExplanation;
};

export type { EntityType };
