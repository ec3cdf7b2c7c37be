/**
 * Workforce request and response shapes: one schema validates, serializes and documents each.
 */
import { Type } from 'typebox';
import { identifiersField } from '../../http/identifier-fields.ts';
import { countryCode, enumOf, Metadata, text } from '../../http/text-fields.ts';

export const MAX_PROFILES = 50_000;
export const SYNC_BODY_LIMIT_BYTES = 25 * 2 ** 20;
/** How long one sync may run: 50,000 new profiles screened take about a minute on a 2-core machine. */
export const SYNC_RUNNING_MS = 15 * 60_000;
const US_PERSON = ['us_citizen', 'lawful_permanent_resident', 'protected_individual', 'foreign_person', 'unknown'] as const;

const ProfileBody = Type.Object(
  {
    external_id: text(128, "Your HR system's id for the person; profiles are matched on it."),
    name: text(200, 'Full name, in any script.'),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    country: Type.Optional(countryCode('Where the person lives or works.')),
    citizenship: Type.Optional(countryCode('Citizenship (screened as nationality).')),
    us_person_status: Type.Optional(enumOf(US_PERSON, 'Whether the person is a U.S. person for export control (22 CFR 120.62).')),
    date_of_birth: Type.Optional(Type.String({ pattern: '^\\d{4}(-\\d{2}(-\\d{2})?)?$', description: '`YYYY`, `YYYY-MM` or `YYYY-MM-DD`.' })),
    identifiers: Type.Optional(
      identifiersField(
        "The person's identity documents and numbers (passport, national ID, tax number); kept with the profile and screened again when lists change",
      ),
    ),
    department: Type.Optional(text(200, 'Department or cost centre.')),
    status: Type.Optional(enumOf(['active', 'inactive'] as const, 'Inactive profiles are kept but neither screened nor monitored (default active).')),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

export const SyncBody = Type.Object(
  {
    mode: enumOf(['upsert', 'full'] as const, '`upsert` adds and updates; `full` also deactivates every active profile absent from this payload.'),
    allow_shrink: Type.Optional(
      Type.Boolean({
        description:
          '`full` mode: deactivate the absent profiles even when they are more than the shrink limit allows (409 `sync_shrink_refused` otherwise). ' +
          'Send it only when that many people really left, never to get past a refusal you have not looked at. Default false.',
        examples: [true],
      }),
    ),
    profiles: Type.Array(ProfileBody, {
      maxItems: MAX_PROFILES,
      description: `Up to ${MAX_PROFILES.toLocaleString('en')} profiles; external ids may not repeat.`,
    }),
  },
  {
    additionalProperties: false,
    examples: [
      {
        mode: 'upsert',
        profiles: [
          { external_id: 'E-1001', name: 'Ana Novak', citizenship: 'SI', country: 'US', us_person_status: 'lawful_permanent_resident', department: 'Optics' },
          { external_id: 'E-1002', name: 'Jorge Ramírez', citizenship: 'MX', date_of_birth: '1984-06', status: 'inactive' },
          { external_id: 'E-1003', name: 'Li Wei', citizenship: 'CN', identifiers: [{ type: 'passport', value: 'E12345678', country: 'CN' }] },
        ],
      },
    ],
  },
);

const Counts = Type.Object({
  created: Type.Integer(),
  updated: Type.Integer(),
  unchanged: Type.Integer({ description: 'In the payload exactly as stored: not written, not screened.' }),
  deactivated: Type.Integer({ description: '`full` mode: active profiles absent from the payload.' }),
  screened: Type.Integer({ description: 'New, re-activated, or with a changed name, date of birth, country, citizenship or identifiers.' }),
  potential_matches: Type.Integer(),
  cases_opened: Type.Integer(),
});

export const SyncSchema = Type.Object({
  id: Type.String({ description: 'The sync id, `wfs_…`.' }),
  object: Type.Literal('workforce_sync'),
  mode: Type.String(),
  status: Type.String({ description: 'running, completed or failed (what was written before a failure stays; syncing the same payload again completes it).' }),
  counts: Counts,
  actor: Type.String(),
  request_id: Type.Union([Type.String(), Type.Null()]),
  started_at: Type.String({ format: 'date-time' }),
  finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

/** The members `sync_shrink_refused` adds to the problem details. */
const ShrinkCounts = Type.Object({
  active_profiles: Type.Integer({ description: "The organization's active profiles now.", examples: [300] }),
  profiles_in_request: Type.Integer({ description: 'The profiles in the payload.', examples: [10] }),
  would_deactivate: Type.Integer({
    description:
      'The active profiles absent from the payload, which the sync would have deactivated (profiles the payload marks `inactive` are deactivated on purpose and not counted).',
    examples: [290],
  }),
  deactivation_limit: Type.Integer({ description: 'The most one full sync may deactivate in this organization now.', examples: [30] }),
  limit_percent: Type.Integer({ description: 'The share of the active profiles that limit is made of (`WORKFORCE_SHRINK_LIMIT_PERCENT`).', examples: [10] }),
});

/** The 409 a full sync answers when it would deactivate too many profiles: problem+json with the counts. */
export const ShrinkRefusedResponse = {
  description:
    'A `full` sync would deactivate more active profiles than the shrink limit allows; nothing was changed. Problem details with `code` `sync_shrink_refused` and the counts.',
  content: { 'application/problem+json': { schema: { allOf: [{ $ref: 'Problem#' }, ShrinkCounts] } } },
};

export const SyncIdParams = Type.Object({ id: Type.String({ pattern: '^wfs_[0-9a-z]{26}$', description: 'The sync id, `wfs_…`.' }) });

export const ProfilesQuery = Type.Object(
  {
    status: Type.Optional(enumOf(['active', 'inactive'] as const, 'Only profiles in this status.')),
    outcome: Type.Optional(enumOf(['clear', 'potential_match'] as const, 'Only profiles whose latest screening had this outcome.')),
    external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 300, description: 'The `next_cursor` of the page before.' })),
  },
  { additionalProperties: false },
);

export const ProfileListSchema = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(
    Type.Object({
      id: Type.String(),
      object: Type.Literal('workforce_profile'),
      external_id: Type.String(),
      status: Type.String(),
      profile: Type.Object({}, { additionalProperties: true, description: 'As last synced.' }),
      latest_screening_id: Type.Union([Type.String(), Type.Null()]),
      latest_outcome: Type.Union([Type.String(), Type.Null()]),
      case_id: Type.Union([Type.String(), Type.Null()]),
      last_sync_id: Type.String(),
      created_at: Type.String({ format: 'date-time' }),
      updated_at: Type.String({ format: 'date-time' }),
    }),
  ),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
