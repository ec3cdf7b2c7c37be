/**
 * Adjudication's request and response shapes: one schema validates, serializes and documents
 * each. Unknown fields are refused everywhere, so a misspelt rule is an error, not a silent default.
 */
import { Type } from 'typebox';
import { enumOf, prose, text } from '../../http/text-fields.ts';
import { COUNTRY_REGIMES as REGIMES } from '../../screening/country-sanctions/table.ts';
import { CASE_STATUSES, DISPOSITIONS } from '../cases/case-record.ts';
import { HOLD_SOURCES } from '../cases/country-holds.ts';
import { CLEARING_QUALIFIERS, DEFAULT_RULES, PRIORITIES } from '../cases/rules.ts';
import { ownershipRules } from './ownership-rules-schema.ts';
import { RULE_LIST_CODE, watchlistRules } from './watchlist-rules-schema.ts';

const listCode = Type.String({ pattern: RULE_LIST_CODE, description: "A list code, e.g. `OFAC_SDN`, or a watchlist's `ORG:<slug>`." });
const score = (description: string) => Type.Number({ minimum: 0.5, maximum: 1, description });

export const CaseIdParams = Type.Object({ id: Type.String({ pattern: '^case_[0-9a-z]{26}$', description: 'The case id, `case_…`.' }) });

const thresholds = Type.Object(
  {
    match: Type.Optional(score("The score at which a match becomes a potential match (default 0.80, the engine's calibrated point).")),
    lists: Type.Optional(
      Type.Record(Type.String({ pattern: RULE_LIST_CODE }), score("This list's own threshold."), {
        maxProperties: 30,
        description:
          'Per-list thresholds that replace `match` for their list, e.g. `{ "BIS_EL": 0.85 }`; a watchlist\'s as `ORG:<slug>` (its own `threshold`, when set, comes first).',
      }),
    ),
    auto_clear_band: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 0.3,
        description:
          'Matches up to this far below their threshold are kept in the screening as `auto_cleared_matches` and alert no one (default 0: none kept).',
      }),
    ),
  },
  { additionalProperties: false },
);

const escalation = Type.Object(
  {
    lists: Type.Optional(Type.Array(listCode, { maxItems: 30, description: 'A match on any of these lists opens the case ESCALATED, priority critical.' })),
    programs: Type.Optional(
      Type.Array(text(60, 'A program tag as the list gives it, e.g. `SDGT`, `RUSSIA-EO14024`.'), {
        maxItems: 100,
        description: 'A match listed under any of these programs opens ESCALATED.',
      }),
    ),
    country_flags: Type.Optional(
      Type.Array(enumOf(REGIMES, 'A country regime.'), {
        maxItems: REGIMES.length,
        description:
          'A screening carrying any of these country flags, at any severity, opens its case ESCALATED, priority critical. In the screenings `country_holds.sources` names it does so ' +
          'even with no name match: the flag holds the subject on its own (`holds[].rule: escalation.country_flags`).',
      }),
    ),
  },
  { additionalProperties: false },
);

const countryHolds = Type.Object(
  {
    prohibited_regimes: Type.Optional(
      Type.Array(enumOf(REGIMES, 'A country regime.'), {
        maxItems: REGIMES.length,
        description:
          'A screening whose country flags include a `prohibited` flag of one of these regimes (a comprehensive OFAC embargo or sanctioned region, an ITAR §126.1(d)(1) policy of denial, ' +
          'EAR E:2) holds the subject with no name match: outcome `potential_match`, a `holds[]` entry with `rule: country_holds.prohibited_regimes`, and an OPEN case. ' +
          'Default: every regime. `[]` turns these holds off (what `escalation.country_flags` names still holds); e.g. `["OFAC_COMPREHENSIVE", "OFAC_REGION"]` keeps the embargoes and drops ITAR.',
        examples: [['OFAC_COMPREHENSIVE', 'OFAC_REGION']],
      }),
    ),
    sources: Type.Optional(
      Type.Array(enumOf(HOLD_SOURCES, 'A kind of screening.'), {
        maxItems: HOLD_SOURCES.length,
        description:
          'The screenings country holds apply to, those of `escalation.country_flags` included. Default: all four (prescreen, checkin, vendor, workforce). ' +
          'A re-screen (`rescreen`, monitoring) never holds: it looks only at changed list entries, and the country was weighed at the first screening.',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "Country holds: a subject whose country, nationality or address falls under a prohibition is held for a person's decision even when no name matches. " +
      'On by default: at a defense site a national of an embargoed or ITAR-proscribed country is a deemed-export question before anything else.',
  },
);

const fourEyes = Type.Object(
  {
    denied: Type.Optional(Type.Boolean({ description: 'Every DENIED needs a second, different reviewer to confirm it.' })),
    cleared_min_score: Type.Optional(
      Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
        description: 'Clearing a case scored at least this needs a second reviewer; null: never.',
      }),
    ),
    cleared_escalated: Type.Optional(Type.Boolean({ description: 'Clearing an ESCALATED case needs a second reviewer.' })),
  },
  { additionalProperties: false },
);

const hours = Type.Number({ exclusiveMinimum: 0, maximum: 8760 });
const slaHours = Type.Object(
  Object.fromEntries(PRIORITIES.map((p) => [p, Type.Optional(hours)])) as Record<(typeof PRIORITIES)[number], ReturnType<typeof Type.Optional<typeof hours>>>,
  {
    additionalProperties: false,
    description: 'Hours a case of each priority may wait before it is overdue. A lower priority may not be due sooner than a higher one.',
  },
);

const suppressions = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: 'Whether clearing a case suppresses its false positives (default true).' })),
    expire_after_days: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 3650 }), Type.Null()], {
        description: 'Days a suppression lasts (default 365); null: until either side changes.',
      }),
    ),
  },
  { additionalProperties: false },
);

const contradicts = (what: string) =>
  enumOf(['contradicts'] as const, `The match's ${what} qualifier contradicts the entry (see the match's \`explanation.qualifiers\`).`);
const clearingRule = Type.Object(
  {
    name: text(80, "The rule's name, unique among the organization's clearing rules (ignoring case). Every match it clears records it in `cleared_by.rule`."),
    description: Type.Optional(prose(500, 'Why the organization clears on this, in words an auditor will read.')),
    when: Type.Object(
      {
        date_of_birth: Type.Optional(contradicts('date of birth')),
        country: Type.Optional(contradicts('country')),
        type: Type.Optional(contradicts('subject type')),
      },
      {
        additionalProperties: false,
        description:
          `The conditions, all of which must hold; at least one of ${CLEARING_QUALIFIERS.join(', ')}. A date of birth contradicts only when it is more than 2 years ` +
          "from the entry's (a year or two off, a day/month swap or another calendar is a slip, not a contradiction).",
      },
    ),
    max_name_score: Type.Optional(
      Type.Number({
        exclusiveMinimum: 0,
        maximum: 1,
        description:
          'Clear only matches whose name score (`explanation.name_score`) is at most this, e.g. 0.95 leaves exact names alerting. Absent: any name score.',
      }),
    ),
  },
  { additionalProperties: false },
);
const clearingRules = Type.Array(clearingRule, {
  maxItems: 20,
  description:
    'Qualifier-based clearing, opt-in: a match at or above its threshold whose qualifiers meet every condition of a rule is cleared without a person, ' +
    "and kept in the screening's `auto_cleared_matches` with `cleared_by` naming the rule and the rules version. Tried in order; the first that applies clears. " +
    'A match a listed identifier corroborates is never cleared by a rule. Default: none, so a disagreeing date of birth, country or type alone never clears a match.',
});

export const RulesBody = Type.Object(
  {
    thresholds: Type.Optional(thresholds),
    escalation: Type.Optional(escalation),
    country_holds: Type.Optional(countryHolds),
    four_eyes: Type.Optional(fourEyes),
    sla_hours: Type.Optional(slaHours),
    suppressions: Type.Optional(suppressions),
    clearing_rules: Type.Optional(clearingRules),
    watchlists: Type.Optional(watchlistRules),
    ownership: Type.Optional(ownershipRules),
  },
  {
    additionalProperties: false,
    description: 'The whole rule set. A section or field left out takes its default; the stored version is always complete.',
    examples: [
      {
        thresholds: { match: 0.82, lists: { BIS_EL: 0.85 }, auto_clear_band: 0.05 },
        escalation: { lists: ['OFAC_SDN'], programs: ['SDGT'], country_flags: ['OFAC_COMPREHENSIVE'] },
        country_holds: { prohibited_regimes: ['OFAC_COMPREHENSIVE', 'OFAC_REGION', 'ITAR_126_1', 'EAR_E2'], sources: ['prescreen', 'checkin', 'vendor'] },
        four_eyes: { denied: true, cleared_min_score: 0.95, cleared_escalated: true },
        sla_hours: { critical: 4, high: 24, medium: 72, low: 168 },
        suppressions: { enabled: true, expire_after_days: 365 },
        watchlists: { red: 'deny', orange: 'hold', yellow: 'review' },
        ownership: { store: 'always', open_case_on: ['blocked', 'restricted', 'indeterminate'] },
        clearing_rules: [
          {
            name: 'other-person-by-date-and-nationality',
            description: 'A near-exact name whose date of birth and nationality both disagree is another person; exact names still alert.',
            when: { date_of_birth: 'contradicts', country: 'contradicts' },
            max_name_score: 0.95,
          },
        ],
      },
    ],
  },
);

const requiredOf = (schema: ReturnType<typeof Type.Object>) => Type.Required(schema);
export const RulesSchema = Type.Object(
  {
    object: Type.Literal('adjudication_rules'),
    version: Type.Integer({ description: '0 for the defaults an organization has before it writes its own; each PUT adds one.' }),
    created_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    created_by: Type.Union([Type.String(), Type.Null()]),
    rules: Type.Object({
      thresholds: Type.Object({ match: Type.Number(), lists: Type.Record(Type.String(), Type.Number()), auto_clear_band: Type.Number() }),
      escalation: requiredOf(escalation),
      country_holds: requiredOf(countryHolds),
      four_eyes: requiredOf(fourEyes),
      sla_hours: requiredOf(slaHours),
      suppressions: requiredOf(suppressions),
      clearing_rules: clearingRules,
      watchlists: requiredOf(watchlistRules),
      ownership: requiredOf(ownershipRules),
    }),
  },
  { examples: [{ object: 'adjudication_rules', version: 0, created_at: null, created_by: null, rules: DEFAULT_RULES }] },
);

export const DispositionBody = Type.Object(
  {
    disposition: enumOf(DISPOSITIONS, 'CLEARED: not the listed party. ESCALATED: needs a senior decision. DENIED: the listed party, or too close to admit.'),
    reason: prose(2000, 'Why, in words an auditor will read. Required.'),
    matches: Type.Optional(
      Type.Array(
        Type.Object(
          {
            match_id: Type.String({ pattern: '^mat_[0-9a-z]{26}$', description: 'A match of this case, `mat_…`.' }),
            decision: enumOf(['false_positive', 'true_match'] as const, 'What this match is.'),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: 100,
          description: 'Decisions per match. When CLEARED, a match not called `true_match` counts as a false positive and is suppressed for this subject.',
        },
      ),
    ),
    assignee: Type.Optional(text(200, 'Assign the case to this person (an email or user id) at the same time.')),
  },
  {
    additionalProperties: false,
    examples: [
      { disposition: 'CLEARED', reason: 'Different date of birth (1990 vs 1961) and nationality; passport checked at the desk.' },
      {
        disposition: 'DENIED',
        reason: 'Same name, date of birth and nationality as SDN entry 10001.',
        matches: [{ match_id: 'mat_01jd2x0000000000000000000a', decision: 'true_match' }],
      },
    ],
  },
);

export const AssignBody = Type.Object(
  { assignee: Type.Union([text(200, 'An email or user id.'), Type.Null()], { description: 'Who works the case; null unassigns it.' }) },
  { additionalProperties: false },
);

export const NoteBody = Type.Object({ text: prose(2000, 'The note, kept in the case history.') }, { additionalProperties: false });

export const QueueQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Array(enumOf(['OPEN', 'ESCALATED'] as const, 'A status of an open case.'), {
        description: 'OPEN, ESCALATED or both (repeat the parameter); default both.',
      }),
    ),
    assignee: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    min_score: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    list: Type.Optional(listCode),
    source: Type.Optional(
      enumOf(
        ['prescreen', 'checkin', 'vendor', 'workforce', 'rescreen', 'ownership'] as const,
        'Where the screening came from, or `ownership` for determinations.',
      ),
    ),
    created_after: Type.Optional(Type.String({ format: 'date-time' })),
    created_before: Type.Optional(Type.String({ format: 'date-time' })),
    overdue: Type.Optional(Type.Boolean({ description: 'true: only cases past their SLA; false: only cases within it.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 300, description: 'The `next_cursor` of the page before.' })),
  },
  { additionalProperties: false },
);

const PendingSchema = Type.Union(
  [
    Type.Object({
      disposition: Type.String(),
      reason: Type.String(),
      actor: Type.String(),
      at: Type.String({ format: 'date-time' }),
      match_decisions: Type.Record(Type.String(), Type.String()),
      requires_second_reviewer: Type.String({ description: 'Which rule asks for a second reviewer.' }),
      person: Type.Optional(
        Type.Union([Type.String(), Type.Null()], {
          description:
            'The person answerable for the proposal (`user:<id>`): the proposer, or whoever created the API key that proposed it; null when no person did (a key made from the command line).',
        }),
      ),
    }),
    Type.Null(),
  ],
  {
    description:
      'A CLEARED or DENIED waiting for a second person to confirm it by sending the same disposition. The confirmation must come from a person (a console user or a JWT), ' +
      'never an API key, and never from `person`: a proposal made with a key answers to whoever created the key.',
  },
);

const caseFields = {
  id: Type.String(),
  object: Type.Literal('case'),
  status: enumOf(CASE_STATUSES, 'OPEN and ESCALATED are open; CLEARED and DENIED are closed.'),
  priority: enumOf(PRIORITIES, 'From the score, the lists and the country flags; critical when an escalation rule applies.'),
  priority_reasons: Type.Array(Type.String(), {
    description:
      'Each step that set the priority, in words. A country hold adds its rule, e.g. `country rule: OFAC_COMPREHENSIVE (IR) — nationality IR`, and an escalation rule ' +
      '`escalation rule: country flag ITAR_126_1`.',
  }),
  score: Type.Number({ description: 'The highest score among the alerting matches; 0 for a case a country hold opened with no name match.' }),
  lists: Type.Array(Type.String(), { description: "The alerting matches' lists; empty for a case a country hold opened with no name match." }),
  source: Type.String({
    description: 'prescreen, checkin, vendor, workforce or rescreen (a screening opened it), or ownership (a stored ownership determination did).',
  }),
  screening_id: Type.Union([Type.String(), Type.Null()], { description: 'The screening the case is about; null for a case about an ownership determination.' }),
  ownership_check_id: Type.Union([Type.String(), Type.Null()], {
    description:
      'The stored ownership determination the case is about (`GET /ownership/checks/{id}`), when the adjudication rules’ `ownership.open_case_on` named its status; ' +
      'a re-evaluation that supersedes it moves the case to the new one. Null for a case a screening opened.',
  }),
  assignee: Type.Union([Type.String(), Type.Null()]),
  sla_due_at: Type.String({ format: 'date-time' }),
  overdue: Type.Boolean({ description: 'Open and past its SLA.' }),
  pending_decision: PendingSchema,
  match_decisions: Type.Record(Type.String(), Type.String(), { description: 'match id → false_positive or true_match.' }),
  rules_version: Type.Integer({ description: 'The rules version that governs this case (the one in force when it was screened).' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  closed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
};

export const QueueSchema = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      ...caseFields,
      subject: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
        description: "What was screened (the screening's `input`); for an ownership case its target: `company` (the name), `target_id` and `ownership_status`.",
      }),
      top_match: Type.Union([Type.Object({ list: Type.String(), entry_id: Type.String(), entry_name: Type.String(), score: Type.Number() }), Type.Null()]),
    }),
  ),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last.' }),
  totals: Type.Record(Type.String(), Type.Integer(), { description: 'Cases matching the filters, by status (all pages).' }),
});

export const CaseDetailSchema = Type.Object({
  ...caseFields,
  screening: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
    description: 'The screening as `GET /screenings/{id}` returns it, matches and explanations included; null for a case about an ownership determination.',
  }),
  determination: Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()], {
    description:
      'The ownership determination as `GET /ownership/checks/{id}` returns it (the graph, both verdicts with their paths, the record hash verified), for a case ' +
      'about one (source `ownership`); null otherwise. Such a case has no matches: decide it without `matches`.',
  }),
  history: Type.Array(
    Type.Object({
      seq: Type.Integer(),
      at: Type.String({ format: 'date-time' }),
      action: Type.String({
        description:
          'opened, decision_pending, disposition_applied, assigned, note, reopened, or determination_changed (a re-evaluation superseded the ownership determination the case is about; `details` names both).',
      }),
      actor: Type.String(),
      from_status: Type.Union([Type.String(), Type.Null()]),
      to_status: Type.Union([Type.String(), Type.Null()]),
      disposition: Type.Union([Type.String(), Type.Null()]),
      reason: Type.Union([Type.String(), Type.Null()]),
      details: Type.Object({}, { additionalProperties: true }),
      request_id: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  rules: Type.Object({
    version: Type.Integer(),
    rules: Type.Object({}, { additionalProperties: true }),
    created_at: Type.Union([Type.String(), Type.Null()]),
    created_by: Type.Union([Type.String(), Type.Null()]),
  }),
});
