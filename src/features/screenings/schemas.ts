/**
 * The screening endpoints' request and response shapes: one schema validates, serializes and
 * documents each. Free-text fields refuse control characters and are trimmed by the handler.
 */
import { Type } from 'typebox';

import { identifiersField } from '../../http/identifier-fields.ts';
import { LISTS_STALE_DESCRIPTION, staleListsField } from '../../http/stale-list-fields.ts';
import { countryCode, Metadata, text } from '../../http/text-fields.ts';
import { WatchlistOfMatchSchema } from './watchlist-match-schema.ts';

export const ListCodes = Type.Array(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{1,31}$' }), {
  minItems: 1,
  maxItems: 20,
  description:
    'Screen against these lists only (codes as in `GET /api/v1/lists`, e.g. `OFAC_SDN`, `BIS_EL`). Default: every loaded list. ' +
    "The organization's own active watchlists are screened whatever this says: a door's own list is never left out by a narrower request.",
});

export const PrescreenBody = Type.Object(
  {
    subject: Type.Optional(
      text(200, "The person's full name, in any script (or an organization's name with `type: organization`, a vessel's with `type: vessel`)."),
    ),
    company: Type.Optional(
      text(300, "The organization the subject works for (a vessel's owner or operator), or the organization to screen when `subject` is absent."),
    ),
    country: Type.Optional(countryCode("The country of the subject or company (residence, registration, a vessel's flag).")),
    type: Type.Optional(
      Type.Union([Type.Literal('person'), Type.Literal('organization'), Type.Literal('vessel')], {
        description:
          'What `subject` names. Default `person`; `organization` when only `company` is given. A `vessel` is screened against the vessels on the lists, by name and by IMO number and MMSI.',
      }),
    ),
    date_of_birth: Type.Optional(
      Type.String({
        pattern: '^\\d{4}(-\\d{2}(-\\d{2})?)?$',
        description:
          '`YYYY`, `YYYY-MM` or `YYYY-MM-DD`. Corroborates or contradicts a listed date. A year up to 2 years off or day and month swapped is read as a ' +
          'data-entry slip, not a contradiction; a contradiction lowers the score but never clears a name at or above the threshold by itself.',
        examples: ['1961-02-12'],
      }),
    ),
    nationality: Type.Optional(countryCode("The subject's nationality.")),
    address: Type.Optional(
      text(
        500,
        "The subject's or company's address as free text. Screened for sanctioned regions it names (Crimea, the so-called DNR and LNR), which a country code cannot show.",
      ),
    ),
    aliases: Type.Optional(
      Type.Array(text(200, 'Another name of the subject.'), { maxItems: 10, description: 'Other names of the subject (up to 10); each is screened.' }),
    ),
    identifiers: Type.Optional(identifiersField("The subject's identifiers (the company's, when only `company` is given)")),
    reference: Type.Optional(text(128, 'Your own id for this screening (a visitor or case number), returned as given.')),
    lists: Type.Optional(ListCodes),
    metadata: Type.Optional(Metadata),
  },
  {
    additionalProperties: false,
    examples: [
      { subject: 'Karim Yusuf Abu-Ali', company: 'Example Trading Co., Ltd.', country: 'IR', date_of_birth: '1961-02-12', reference: 'visit-2026-0042' },
      { subject: 'Ocean Glory', type: 'vessel', identifiers: [{ type: 'imo', value: 'IMO 9187629' }] },
      { subject: 'Karim Abu Ali', identifiers: [{ type: 'passport', value: 'A1234567', country: 'IR' }] },
      { company: 'Rosneft Trading SA', country: 'CH', lists: ['OFAC_SDN', 'OFAC_CONS'] },
      { subject: 'Владимир Путин', aliases: ['V. V. Putin'], nationality: 'ru', metadata: { site: 'plant-7' } },
    ],
  },
);

export const ScreeningIdParams = Type.Object({ id: Type.String({ pattern: '^scr_[0-9a-z]{26}$', description: 'The screening id, `scr_…`.' }) });

const TokenSchema = Type.Object({
  query: Type.Optional(Type.String()),
  list: Type.Optional(Type.String()),
  how: Type.String({
    description:
      'exact, phonetic, nickname (a form of the same given name), word_form (a form of the same trade word: Air, Airlines), transliterated, typo, initial, merged, legal_form, unmatched_query or unmatched_list.',
  }),
  similarity: Type.Number(),
  weight: Type.Number({ description: 'How much this word counts: rare words more, legal forms and particles less.' }),
});

const QualifierSchema = Type.Object({
  factor: Type.String({
    description:
      'date_of_birth, country, identifier, name_kind or type; or alert_threshold, when a name at or above the threshold was held there ' +
      'because only its date of birth, country or type disagreed (never cleared by those alone; a clearing rule may clear it).',
  }),
  effect: Type.Union([Type.Literal('corroborates'), Type.Literal('contradicts'), Type.Literal('neutral'), Type.Literal('unknown'), Type.Literal('holds')], {
    description:
      '`corroborates` or `contradicts` the entry; `neutral`: compared and close enough to be a data-entry slip (a year of birth up to 2 years off, ' +
      'a day/month swap, the year in the Solar or lunar Hijri calendar), so it moves nothing; `unknown`: one side does not say; ' +
      '`holds`: the score was held at the alert threshold (factor `alert_threshold`).',
  }),
  contribution: Type.Number({ description: 'The change this factor made to the score (for `holds`, what the hold added back).' }),
  detail: Type.String({ description: 'Why, in words, e.g. "born 1985; the entry gives 1984-01-08: 1 year apart, within 2 years, read as a data-entry slip".' }),
});

export const MatchSchema = Type.Object({
  id: Type.String({ description: 'The match id, `mat_…`; adjudication decisions refer to it.' }),
  list: Type.String({ description: "The list code, e.g. `OFAC_SDN`; `ORG:<slug>` for one of the organization's watchlists (see `watchlist`)." }),
  entry_id: Type.String({ description: "The list's own id for the entry (OFAC ent_num, UN reference number …); a watchlist entry's `wle_…` id." }),
  entry_name: Type.String({ description: "The entry's listed (primary) name." }),
  entry_type: Type.String({ description: 'person, organization, vessel or aircraft.' }),
  matched_name: Type.String({ description: "The entry's name that matched: the listed name or an alias." }),
  name_kind: Type.String({ description: 'primary, strong_alias, weak_alias, former_name or original_script.' }),
  field: Type.Union([Type.Literal('subject'), Type.Literal('company'), Type.Literal('alias')], { description: 'Which of your inputs matched.' }),
  score: Type.Number({ minimum: 0, maximum: 1 }),
  explanation: Type.Object({
    summary: Type.String({ description: 'The match in words, as an adjudicator reads it.' }),
    found_by_identifier: Type.Optional(
      Type.String({
        description:
          "Present when an identifier found the entry and the names alone are no match: which of your identifiers, and the entry's identifier it equals. Such a match scores 0.95 at least.",
        examples: ['IMO number 9187629 is on the entry (IMO 9187629)'],
      }),
    ),
    query_name: Type.String(),
    list_name: Type.String(),
    name_kind: Type.String(),
    name_score: Type.Number(),
    tokens: Type.Array(TokenSchema),
    qualifiers: Type.Array(QualifierSchema),
  }),
  programs: Type.Array(Type.String(), { description: 'Sanctions programs or list sub-lists, e.g. `RUSSIA-EO14024`, `SSI`.' }),
  list_version: Type.String({ description: 'The list version (`lv_…`) the entry comes from; for a watchlist, its version `wl_…@<n>`.' }),
  entry_sha256: Type.String({
    description: "SHA-256 of the entry's content as imported (or as last edited, on a watchlist). A suppression holds only while it is unchanged.",
  }),
  threshold: Type.Number({ description: "The threshold this match was held to: the organization's, for this list (adjudication rules)." }),
  suppressed_by: Type.Union([Type.String(), Type.Null()], {
    description:
      'The suppression (`sup_…`) that covers this match: the same subject was cleared against this same entry content before, so it alerts no one. ' +
      'Such a match is also listed in `auto_cleared_matches`, under the same `id`, with `cleared_by.kind` `suppression`.',
  }),
  watchlist: Type.Optional(WatchlistOfMatchSchema),
});

export const ClearedBySchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('band'), Type.Literal('rule'), Type.Literal('suppression')], {
      description:
        "`band`: scored below its threshold, within the rules' auto-clear band. `rule`: at or above it, cleared by one of the organization's clearing rules " +
        '(`clearing_rules` of the adjudication rules). `suppression`: an earlier false-positive decision on this subject and entry covers it.',
    }),
    rule: Type.Optional(Type.String({ description: "The clearing rule's name (kind `rule`)." })),
    rules_version: Type.Integer({ description: "The version of the organization's adjudication rules that cleared it (0: the defaults)." }),
    suppression_id: Type.Optional(Type.String({ description: 'The suppression, `sup_…` (kind `suppression`).' })),
    reason: Type.String({
      description: 'Why, in words an auditor reads: the score and band, or the rule and the qualifiers that met its conditions, or the suppression.',
      examples: ['scored 0.76, within the auto-clear band 0.05 below the threshold 0.80 (rules v3)'],
    }),
  },
  { description: 'What cleared this match without a person, and why.' },
);

export const AutoClearedMatchSchema = Type.Object({
  ...MatchSchema.properties,
  cleared_by: Type.Optional(ClearedBySchema),
});

export const CountryFlagSchema = Type.Object({
  country: Type.String(),
  region: Type.Optional(Type.String()),
  regime: Type.String({ description: 'OFAC_COMPREHENSIVE, OFAC_REGION, ITAR_126_1, EAR_E1 or EAR_E2.' }),
  severity: Type.String({ description: '`prohibited` (embargo, policy of denial) or `restricted`.' }),
  reason: Type.String(),
  citation: Type.String(),
  source_url: Type.String(),
  effective_from: Type.String(),
  effective_from_exact: Type.Boolean({ description: 'False when the table could confirm the rule was in force on a date but not the day it began.' }),
  matched_term: Type.Optional(Type.String({ description: 'For a region found in address text: the words that named it.' })),
});

export const CountryHoldSchema = Type.Object(
  {
    kind: Type.Literal('country', { description: 'What holds: a country rule (the only kind today).' }),
    regime: Type.String({
      description:
        'The country flag that holds: OFAC_COMPREHENSIVE, OFAC_REGION, ITAR_126_1, EAR_E1 or EAR_E2 (see `country_flags` for its reason and citation).',
    }),
    country: Type.String({ description: 'ISO 3166-1 alpha-2; for a region, the country it lies in.' }),
    region: Type.Optional(Type.String({ description: 'A sanctioned region found in the address: crimea, dnr or lnr.' })),
    severity: Type.String({ description: "The flag's severity: `prohibited` or `restricted`." }),
    rule: Type.Union([Type.Literal('escalation.country_flags'), Type.Literal('country_holds.prohibited_regimes')], {
      description:
        "The organization's adjudication rule that holds: `escalation.country_flags` (the rules name the regime; the case opens ESCALATED, critical) or " +
        '`country_holds.prohibited_regimes` (a `prohibited` flag of a regime held by default; the case opens OPEN). Either is set with `PUT /adjudication/rules`.',
    }),
    detail: Type.String({
      description: 'Which fact of the subject raised the flag.',
      examples: ['nationality IR', 'nationality and country KP', 'address names "sevastopol" (crimea)'],
    }),
  },
  {
    description:
      'A country flag the rules hold the subject for on its own, with or without a name match: a person must decide (the case, `case_id`) before the subject is let through.',
    examples: [
      {
        kind: 'country',
        regime: 'OFAC_COMPREHENSIVE',
        country: 'IR',
        severity: 'prohibited',
        rule: 'country_holds.prohibited_regimes',
        detail: 'nationality IR',
      },
    ],
  },
);

export const ListVersionSchema = Type.Object({
  list: Type.String(),
  version_id: Type.String(),
  published_on: Type.Union([Type.String(), Type.Null()], {
    description: 'The publication date the source states; null when it states none (OFAC legacy files).',
  }),
  imported_at: Type.String({ format: 'date-time' }),
  sha256: Type.String({ description: 'SHA-256 of the source files as imported.' }),
  entity_count: Type.Integer(),
});

export const ScreeningSchema = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('screening'),
    source: Type.String({ description: 'prescreen, vendor, checkin, workforce or rescreen.' }),
    outcome: Type.Union([Type.Literal('clear'), Type.Literal('potential_match')], {
      description:
        '`potential_match` when any list entry scored at or above its threshold, or when the rules hold the subject for a country flag (`holds` is then not empty, ' +
        'and `matches` may be): either way someone must decide before the subject is let through. `clear` only when neither. ' +
        'A country flag that holds nothing (e.g. a `restricted` one the rules do not name) is reported in `country_flags` and does not change the outcome. ' +
        'A potential match whose every match is suppressed (see `matches[].suppressed_by`) and that has no hold opens no case. ' +
        'A match a clearing rule clears does not count: it is in `auto_cleared_matches`.',
    }),
    score: Type.Number({ description: 'The highest match score; 0 when no list entry matched (clear, or held for a country flag alone).' }),
    input: Type.Object({}, { additionalProperties: true, description: 'What was screened, trimmed, country codes upper-cased.' }),
    matches: Type.Array(MatchSchema, {
      description: 'The matches at or above their threshold that no clearing rule cleared, best first; a suppressed one is marked `suppressed_by`.',
    }),
    auto_cleared_matches: Type.Array(AutoClearedMatchSchema, {
      description:
        'Every match cleared without a person, best first, each with `cleared_by` (kind, rule, rules version, reason): those within the auto-clear band ' +
        "below their threshold, those at or above it that one of the organization's clearing rules cleared, and those a suppression covers " +
        '(which are also in `matches`, with the same `id`). Kept so the record shows what was seen and why it alerted no one. ' +
        'Screenings recorded before `cleared_by` existed have band matches only, without it.',
    }),
    country_flags: Type.Array(CountryFlagSchema, {
      description: "Every row of the country sanctions table that applies to the subject's country, nationality or address.",
    }),
    holds: Type.Optional(
      Type.Array(CountryHoldSchema, {
        description:
          "The country flags the organization's adjudication rules hold the subject for, match or no match (by default every `prohibited` flag: comprehensive embargoes and " +
          "sanctioned regions, ITAR §126.1(d)(1), EAR E:2; see the rules' `country_holds` and `escalation.country_flags`). Not empty: the outcome is `potential_match` and a case opens. " +
          'A re-screen (`rescreen`) never holds. Absent only in screenings stored before holds existed (read it as `[]`).',
      }),
    ),
    list_versions: Type.Array(ListVersionSchema, {
      description:
        "Every list version consulted; a stale list shows here. Each of the organization's active watchlists is one: `list` `ORG:<slug>`, " +
        "`version_id` its version `wl_…@<n>`, `imported_at` when that version was written, `sha256` the version's content hash, `entity_count` its entries.",
    }),
    lists_stale: Type.Optional(
      Type.Boolean({
        description: `${LISTS_STALE_DESCRIPTION} Absent in screenings recorded before this was kept: read absence as "not recorded", not as \`false\`.`,
        examples: [false],
      }),
    ),
    stale_lists: Type.Optional(
      staleListsField('The lists consulted that were past their maximum age when this screening ran; empty when none. Absent when `lists_stale` is.'),
    ),
    thresholds: Type.Object(
      {
        match: Type.Number({ description: 'The score at which a match alerts.' }),
        lists: Type.Record(Type.String(), Type.Number(), { description: 'Per-list thresholds that replace `match` for their list.' }),
        auto_clear_band: Type.Number({ description: 'How far below its threshold a match is kept as auto-cleared.' }),
        rules_version: Type.Integer({ description: "The version of the organization's adjudication rules these come from (0: the defaults)." }),
      },
      { description: "The organization's adjudication rules that decided what alerts." },
    ),
    case_id: Type.Union([Type.String(), Type.Null()], {
      description:
        'The adjudication case (`case_…`) this potential match or country hold opened; null when clear, or when every match was suppressed and nothing holds.',
    }),
    case_status: Type.Union([Type.Literal('OPEN'), Type.Literal('ESCALATED'), Type.Literal('CLEARED'), Type.Literal('DENIED'), Type.Null()], {
      description: "The case's status now: its disposition once decided.",
    }),
    reference: Type.Union([Type.String(), Type.Null()]),
    record_sha256: Type.String({ description: "SHA-256 of this record's canonical JSON (every field above except this one, case_id and case_status)." }),
    created_at: Type.String({ format: 'date-time' }),
    request_id: Type.String(),
    actor: Type.Object({ kind: Type.String(), id: Type.String() }, { description: 'Who screened: the API key or the signed-in person.' }),
  },
  { $id: 'Screening' },
);
