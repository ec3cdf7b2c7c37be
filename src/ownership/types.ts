/**
 * What the ownership evaluation is asked and what it answers. The answer is shaped as the API
 * reports it (snake_case), so the route adapts nothing but the screening it adds.
 */
import type { Designation, DesignationList } from './list-scope.ts';
import type { AffiliatesRuleStatus } from './rule-status.ts';

/** A designation and where it came from: given by the caller, or found by screening the name. */
export type SourcedDesignation = Designation & { source: 'given' | 'screening'; entry_id?: string };

export type GraphEntity = {
  id: string;
  type: 'person' | 'entity';
  /** ISO 3166-1 alpha-2; `US` makes an entity domestic for BIS, absent counts as foreign. */
  country?: string;
  designations?: SourcedDesignation[];
};

export type OwnershipLink = {
  owner: string;
  owned: string;
  /** Percent of `owned` held by `owner`, up to 6 decimals; null when unknown. */
  percent: number | null;
  /** `ownership` (the default) counts; control, director, officer, … never do. */
  kind?: string;
  /** The stake held from/until these dates (inclusive); outside them it is ignored. */
  start_date?: string;
  end_date?: string;
};

export type OwnershipQuery = {
  target: string;
  /** YYYY-MM-DD, a US Eastern calendar date. */
  asOf: string;
  entities: readonly GraphEntity[];
  ownerships: readonly OwnershipLink[];
};

export type Basis = 'listed' | 'ownership' | 'none';

export type Contributor = {
  owner: string;
  percent: number | null;
  basis: 'listed' | 'ownership';
  /** False when the owner is covered only if unknown stakes are large enough, or its stake is unknown. */
  certain: boolean;
};

export type PathHop = {
  entity: string;
  /** The stake this entity holds in the next one; absent on the last hop (the target). */
  percent_in_next?: number | null;
  basis: Basis;
  /** For a listed party: the lists that make it count for this rule. */
  lists?: DesignationList[];
  /** The covered stakes held in this entity, summed (the lower bound). */
  aggregate_percent?: number;
  certain: boolean;
};

export type OwnershipPath = {
  hops: PathHop[];
  /** The stake on the last link, into the target: what this path adds to its aggregate. */
  contribution_percent: number | null;
  certain: boolean;
  /** Longer chains are cut here; the chain still continues above its first hop. */
  complete: boolean;
  text: string;
};

type Explained = {
  determinate: boolean;
  basis: Basis;
  /** The covered owners' stakes in the target, summed (lower bound); null for a natural person. */
  aggregate_percent: number | null;
  /** The most the covered owners may hold, counting unknown stakes at their largest. */
  aggregate_percent_upper: number | null;
  contributors: Contributor[];
  paths: OwnershipPath[];
  paths_truncated: boolean;
};

export type OfacVerdict = Explained & { blocked: boolean };

export type BisVerdict = Explained & {
  restricted: boolean;
  affiliates_rule_status: AffiliatesRuleStatus;
  affiliates_rule_window: { from: string | null; to: string | null; scheduled: boolean; source: string };
  /** Whether the target is a foreign (non-U.S.) entity, the only kind the rule reaches. */
  foreign_entity: boolean;
  red_flag_29: boolean;
  /** The listed parties whose restrictions reach the target. */
  inherited_from: { entity: string; lists: DesignationList[] }[];
};

export type EntityVerdict = {
  id: string;
  ofac_blocked: boolean;
  ofac_determinate: boolean;
  bis_restricted: boolean;
  bis_determinate: boolean;
  designations: SourcedDesignation[];
};

export type WarningCode =
  | 'cycle_detected'
  | 'ownership_over_100'
  | 'unknown_percent'
  | 'control_not_ownership'
  | 'sdn_programs_unknown'
  | 'minority_ownership'
  | 'listed_not_counted'
  | 'as_of_before_aggregation_guidance'
  | 'country_unknown'
  | 'us_intermediate'
  | 'us_target'
  | 'tgl_period'
  | 'edges_not_in_effect'
  | 'potential_match_not_counted';

export type OwnershipWarning = {
  code: WarningCode;
  detail: string;
  /** Entity ids concerned, at most WARNING_SAMPLE of them; `count` says how many there are. */
  entities?: string[];
  count?: number;
};

export type OwnershipVerdict = {
  target: string;
  as_of: string;
  ofac: OfacVerdict;
  bis: BisVerdict;
  /** The target, and every entity designated or covered (possibly) under either rule, in input order. */
  entities: EntityVerdict[];
  warnings: OwnershipWarning[];
};
