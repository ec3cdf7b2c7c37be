/**
 * The answer of an ownership check as the API serializes and documents it. Every field the
 * evaluation (src/ownership/types.ts) returns is named here: a response schema drops what it
 * does not name.
 */
import { Type } from 'typebox';
import { LISTS_STALE_DESCRIPTION, staleListsField } from '../../http/stale-list-fields.ts';
import { WatchlistOfMatchSchema } from '../screenings/watchlist-match-schema.ts';
import { documentedAnswer } from './documented-answer.ts';
import { ListCode } from './schemas.ts';

const Percent = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });
const Lists = Type.Array(ListCode);
const Basis = Type.Union([Type.Literal('listed'), Type.Literal('ownership'), Type.Literal('none')], {
  description: '`listed`: the party is on a list this rule counts. `ownership`: covered through ownership. `none`: neither.',
});

const Contributor = Type.Object({
  owner: Type.String(),
  percent: Percent('Its stake in the target; null when unknown.'),
  basis: Type.Union([Type.Literal('listed'), Type.Literal('ownership')]),
  certain: Type.Boolean({ description: 'False when the owner is covered only if unknown stakes are large enough, or its own stake is unknown.' }),
});

const Hop = Type.Object({
  entity: Type.String(),
  percent_in_next: Type.Optional(Percent('The stake this party holds in the next one on the path; absent on the target.')),
  basis: Basis,
  lists: Type.Optional(Type.Array(ListCode, { description: 'On the listed party at the top of a path: the lists that make it count.' })),
  aggregate_percent: Type.Optional(Type.Number({ description: 'The stakes covered owners hold in this entity, summed (known stakes).' })),
  certain: Type.Boolean(),
});

const Path = Type.Object({
  hops: Type.Array(Hop, { description: 'From a listed party down to the target.' }),
  contribution_percent: Percent('The stake on the last link, which this path adds to the target.'),
  certain: Type.Boolean({ description: 'Every stake known and every owner surely covered.' }),
  complete: Type.Boolean({ description: 'False for a chain longer than 100 hops, shown from 100 hops above the target.' }),
  text: Type.String({ description: 'The path in words, e.g. `X [OFAC_SDN] —50%→ A [covered owners hold 50%] —40%→ T [covered owners hold 50%]`.' }),
});

const explained = {
  determinate: Type.Boolean({ description: "False when unknown stakes (or an SDN's unknown programs) could change the answer: review before relying on it." }),
  basis: Basis,
  aggregate_percent: Percent(
    'The stakes covered owners hold in the target, summed, never multiplied along chains (a lower bound when stakes are unknown); null for a natural person and, for BIS, on a date the rule is not in force.',
  ),
  aggregate_percent_upper: Percent('The most covered owners may hold, counting unknown stakes at all that the known stakes leave.'),
  contributors: Type.Array(Contributor, { description: 'The covered direct owners of the target, largest stake first.' }),
  paths: Type.Array(Path, { description: 'Why: chains from listed parties to the target, largest contribution first, at most 50.' }),
  paths_truncated: Type.Boolean(),
};

const SourcedDesignation = Type.Object({
  list: ListCode,
  programs: Type.Optional(Type.Array(Type.String())),
  source: Type.Union([Type.Literal('given'), Type.Literal('screening')], {
    description: '`screening`: found by screening the name, at or above the match threshold.',
  }),
  entry_id: Type.Optional(Type.String({ description: "For a designation from screening: the list's own id of the entry." })),
});

const ScreeningMatch = Type.Object({
  list: Type.String(),
  entry_id: Type.String(),
  entry_name: Type.String(),
  matched_name: Type.String(),
  score: Type.Number({ minimum: 0, maximum: 1 }),
  counted: Type.Boolean({
    description: "True when the score reaches the match threshold: the entry is then one of the designations. Never on a watchlist's entry (see `watchlist`).",
  }),
  programs: Type.Array(Type.String()),
  list_version: Type.String(),
  explanation: Type.String({ description: 'The match in words, as an adjudicator reads it.' }),
  watchlist: Type.Optional(
    Type.Object(WatchlistOfMatchSchema.properties, {
      description:
        "On a match on one of your organization's watchlists (`list` `ORG:<slug>`, at or above the watchlist's threshold): the watchlist, and the entry's " +
        'severity and reason. Reported for review, never counted: the ownership rules count OFAC and BIS listings only.',
      examples: [
        {
          id: 'wl_01jbz4r2c6a1b3d5f7h9k1m3np',
          slug: 'vendors-under-review',
          name: 'Vendors under review',
          severity: 'orange',
          reason: 'Open investigation 2026-07.',
        },
      ],
    }),
  ),
});

const EntityVerdict = Type.Object({
  id: Type.String(),
  ofac_blocked: Type.Boolean(),
  ofac_determinate: Type.Boolean(),
  bis_restricted: Type.Boolean(),
  bis_determinate: Type.Boolean(),
  designations: Type.Array(SourcedDesignation),
  screening_matches: Type.Optional(Type.Array(ScreeningMatch, { description: 'Present for a party screened by name that matched list entries.' })),
});

const Warning = Type.Object({
  code: Type.String({
    description:
      'cycle_detected, ownership_over_100, unknown_percent, control_not_ownership, sdn_programs_unknown, minority_ownership, listed_not_counted, ' +
      'as_of_before_aggregation_guidance, country_unknown, us_intermediate, us_target, tgl_period, edges_not_in_effect, potential_match_not_counted or ' +
      "watchlist_match (parties matching your organization's watchlists: reported, not counted).",
  }),
  detail: Type.String(),
  entities: Type.Optional(Type.Array(Type.String(), { description: 'The parties concerned, at most 20.' })),
  count: Type.Optional(Type.Integer({ description: 'How many parties are concerned in all.' })),
});

const ScreeningSummary = Type.Object({
  performed: Type.Boolean(),
  threshold: Type.Union([Type.Number(), Type.Null()], { description: 'The score at which a match counts as a designation.' }),
  entities_screened: Type.Integer(),
  names_screened: Type.Integer({ description: 'Distinct (name, type, country) combinations screened.' }),
  entities_matched: Type.Integer(),
  entities_designated: Type.Integer({ description: 'Parties that got a designation from screening.' }),
  list_versions: Type.Array(
    Type.Object({
      list: Type.String(),
      version_id: Type.String(),
      published_on: Type.Union([Type.String(), Type.Null()]),
      imported_at: Type.String(),
      source_sha256: Type.String(),
    }),
    { description: "The list versions screened against, and each of your organization's active watchlists (`ORG:<slug>`, version `wl_…@<n>`)." },
  ),
  lists_stale: Type.Boolean({ description: `${LISTS_STALE_DESCRIPTION} False when no name was screened.`, examples: [false] }),
  stale_lists: staleListsField('The lists screened against that were past their maximum age when the check ran; empty when none.'),
});

export const OwnershipCheckResult = Type.Object(
  {
    object: Type.Literal('ownership_check'),
    id: Type.String({ description: 'The id of this check, `own_…`, as recorded in the audit trail.' }),
    target: Type.String(),
    as_of: Type.String(),
    checked_at: Type.String({ format: 'date-time' }),
    ofac: Type.Object({
      blocked: Type.Boolean({
        description: 'Listed on the SDN list, or owned 50% or more, directly or through blocked entities, by blocked persons in the aggregate.',
      }),
      ...explained,
    }),
    bis: Type.Object({
      restricted: Type.Boolean({
        description:
          'On the Entity List, the MEU List or an SDN under a 15 CFR 744.8(a)(1) program, or, while the Affiliates Rule is in force, a foreign entity owned 50% or more by such parties or their covered affiliates.',
      }),
      ...explained,
      affiliates_rule_status: Type.Union([Type.Literal('not_in_effect'), Type.Literal('in_force'), Type.Literal('suspended')]),
      affiliates_rule_window: Type.Object(
        { from: Type.Union([Type.String(), Type.Null()]), to: Type.Union([Type.String(), Type.Null()]), scheduled: Type.Boolean(), source: Type.String() },
        {
          description:
            'The dated status the answer used, with its source; `scheduled` when the status was announced for the future when the table was written.',
        },
      ),
      foreign_entity: Type.Boolean({ description: 'The rule reaches foreign (non-U.S.) entities only.' }),
      red_flag_29: Type.Boolean({
        description:
          'The target could be covered but unknown percentages keep it from being determined: resolve the ownership or apply for a license (Supp. No. 3 to Part 732).',
      }),
      inherited_from: Type.Array(Type.Object({ entity: Type.String(), lists: Lists }), {
        description: 'The listed parties whose restrictions reach the target.',
      }),
    }),
    entities: Type.Array(EntityVerdict, {
      description: 'The target and every party designated, matched by screening or covered (possibly) under either rule, in request order.',
    }),
    warnings: Type.Array(Warning),
    screening: ScreeningSummary,
    stored: Type.Boolean({
      description:
        'Whether this check was kept on record as a determination (`store: true`, a `vendor_id`, or rules with `ownership.store: always`): GET /ownership/checks/{id}.',
    }),
    record_sha256: Type.Union([Type.String({ pattern: '^[0-9a-f]{64}$' }), Type.Null()], {
      description: "The SHA-256 of the stored determination's canonical record, as its audit event names it; null when not stored.",
    }),
    vendor_id: Type.Union([Type.String(), Type.Null()], { description: 'The vendor the determination is attached to; null when none.' }),
    case_id: Type.Union([Type.String(), Type.Null()], {
      description:
        "The adjudication case the stored determination opened (source `ownership`, GET /adjudication/{id}): its status is one the adjudication rules' " +
        '`ownership.open_case_on` names (by default blocked, restricted and indeterminate). Null when not stored or when the rules open none.',
    }),
  },
  {
    description: 'The verdict of each rule on the target with its reasons, the status of every party that matters, and what a reviewer must know (warnings).',
    examples: [documentedAnswer()],
  },
);

/** The answer as a stored determination keeps it: what the check decided, before it was stored. */
export const StoredAnswer = Type.Omit(OwnershipCheckResult, ['stored', 'record_sha256', 'vendor_id', 'case_id'], {
  description: 'The answer as POST /ownership/check gave it (without what storing it added).',
});
