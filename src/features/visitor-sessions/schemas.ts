/**
 * Check-in and visitor session shapes: one schema validates, serializes and documents each.
 */
import { Type } from 'typebox';
import { identifiersField } from '../../http/identifier-fields.ts';
import { countryCode, enumOf, Metadata, prose, text } from '../../http/text-fields.ts';
import { SESSION_STATUSES } from './session-states.ts';

const email = (description: string) => Type.String({ format: 'email', maxLength: 254, description });
const US_PERSON = ['us_citizen', 'lawful_permanent_resident', 'protected_individual', 'foreign_person', 'unknown'] as const;

export const SessionIdParams = Type.Object({ id: Type.String({ pattern: '^ses_[0-9a-z]{26}$', description: 'The visitor session id, `ses_…`.' }) });

const VisitorFields = {
  name: text(200, "The visitor's full name, in any script."),
  company: Type.Optional(text(300, 'The organization the visitor works for; screened as an organization.')),
  country: Type.Optional(countryCode('Where the visitor lives. Screened for country flags as `citizenship` is, and held the same way.')),
  citizenship: Type.Optional(
    countryCode(
      "The visitor's citizenship (screened as nationality). A citizenship under a prohibition (a comprehensive embargo, ITAR §126.1(d)(1)) holds the visitor in `pending_review` " +
        "on a case even with no name match, unless the organization's adjudication rules (`country_holds`) say otherwise.",
    ),
  ),
  us_person_status: Type.Optional(
    enumOf(US_PERSON, 'For export control (deemed exports under the EAR and ITAR): whether the visitor is a U.S. person (22 CFR 120.62).'),
  ),
  email: Type.Optional(email("The visitor's email.")),
  date_of_birth: Type.Optional(Type.String({ pattern: '^\\d{4}(-\\d{2}(-\\d{2})?)?$', description: '`YYYY`, `YYYY-MM` or `YYYY-MM-DD`.' })),
  identifiers: Type.Optional(identifiersField("The visitor's identity documents and numbers: passport, national ID, tax number")),
};

export const CheckinBody = Type.Object(
  {
    visitor: Type.Object(VisitorFields, { additionalProperties: false }),
    site: text(100, 'The site, building or gate where the visitor arrives; roll-calls are by site.'),
    host: Type.Optional(
      Type.Object({ name: text(200, 'Who the visitor sees.'), email: Type.Optional(email("The host's email.")) }, { additionalProperties: false }),
    ),
    purpose: Type.Optional(text(500, 'Why the visitor comes.')),
    prescreen_id: Type.Optional(
      Type.String({
        pattern: '^scr_[0-9a-z]{26}$',
        description:
          'A prescreen (`POST /prescreen`) of this visitor. It stands for the screening at the door only when it screened the same person (name, company, country, citizenship, date of birth, identifiers), ' +
          'against the list versions loaded now, within `CHECKIN_PRESCREEN_FRESHNESS_HOURS` (24 by default); otherwise the visitor is screened now. The answer says which, and why.',
      }),
    ),
    expected_departure_at: Type.Optional(Type.String({ format: 'date-time', description: 'When the visitor is expected to leave; in the future.' })),
    escort_required: Type.Optional(Type.Boolean({ description: 'The visitor must be escorted on site (default false).' })),
    badge_number: Type.Optional(text(64, 'The badge handed out.')),
    metadata: Type.Optional(Metadata),
  },
  {
    additionalProperties: false,
    examples: [
      {
        visitor: {
          name: 'Ana Novak',
          company: 'Ljubljana Optics d.o.o.',
          citizenship: 'SI',
          us_person_status: 'foreign_person',
          email: 'ana.novak@example.com',
          identifiers: [{ type: 'passport', value: 'PA1234567', country: 'SI' }],
        },
        site: 'Plant 7 — north gate',
        host: { name: 'R. Alvarez', email: 'ralvarez@example.com' },
        purpose: 'Supplier quality audit',
        escort_required: true,
        badge_number: 'V-1042',
      },
    ],
  },
);

export const SessionUpdateBody = Type.Object(
  {
    status: Type.Optional(enumOf(SESSION_STATUSES, 'The status to move to; it must be allowed from the current one.')),
    metadata: Type.Optional(
      Type.Record(
        Type.String({ pattern: '^[A-Za-z0-9_.-]{1,40}$' }),
        Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Boolean(), Type.Null()]),
        {
          maxProperties: 20,
          description: 'Merged into the stored metadata; a key set to null is removed. At most 20 keys and 2 KiB after the merge.',
        },
      ),
    ),
    note: Type.Optional(prose(1000, "Kept in the session's history (who, when, what).")),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ status: 'checked_out', note: 'Badge V-1042 returned.' }, { metadata: { parking: 'P3', escort: 'J. Kim' } }],
  },
);

export const SessionsQuery = Type.Object(
  {
    status: Type.Optional(Type.Array(enumOf(SESSION_STATUSES, 'A status.'), { description: 'Only these statuses (repeat the parameter).' })),
    site: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    on_site: Type.Optional(Type.Boolean({ description: 'true: only visitors on site now (the roll-call: checked in, or escalated after entering).' })),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'Only sessions that began at or after this time.' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 300, description: 'The `next_cursor` of the page before.' })),
  },
  { additionalProperties: false },
);

const HistoryEntry = Type.Object({
  at: Type.String({ format: 'date-time' }),
  actor: Type.String(),
  from: Type.Union([Type.String(), Type.Null()]),
  to: Type.String(),
  note: Type.Optional(Type.String()),
  case_id: Type.Optional(Type.String()),
});

export const SessionSchema = Type.Object(
  {
    id: Type.String(),
    object: Type.Literal('visitor_session'),
    status: enumOf(
      SESSION_STATUSES,
      'pending_review → checked_in | denied | escalated; checked_in → checked_out | escalated; escalated → checked_in | denied | checked_out; checked_out and denied are final.',
    ),
    on_site: Type.Boolean({ description: 'Inside now: checked in and not yet out or denied.' }),
    site: Type.String(),
    visitor: Type.Object({ ...VisitorFields, name: Type.String(), us_person_status: Type.Optional(Type.String()) }),
    host: Type.Union([Type.Object({ name: Type.String(), email: Type.Optional(Type.String()) }), Type.Null()]),
    purpose: Type.Union([Type.String(), Type.Null()]),
    badge_number: Type.Union([Type.String(), Type.Null()]),
    escort_required: Type.Boolean(),
    expected_departure_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    screening_id: Type.String({ description: 'The screening that decided the door: made at check-in, or the prescreen that stood for it.' }),
    case_id: Type.Union([Type.String(), Type.Null()], {
      description:
        "The adjudication case the visitor waits on (a potential match, or a country hold: see the screening's `holds`); its dispositions move the session.",
    }),
    prescreen_reused: Type.Boolean(),
    prescreen: Type.Optional(
      Type.Object(
        {
          prescreen_id: Type.String(),
          reused: Type.Boolean(),
          reason: Type.Optional(
            Type.String({
              description:
                'Why not: not_found, not_a_prescreen, not_same_person, stale, lists_changed, or country_hold (the rules hold at check-in a country flag the prescreen ' +
                'was not held for, e.g. `country_holds.sources` leaves prescreens out).',
            }),
          ),
        },
        { description: 'In the check-in answer, when a prescreen_id was given: whether it stood for the screening, and if not why.' },
      ),
    ),
    history: Type.Array(HistoryEntry),
    checked_in_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    checked_out_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'VisitorSession' },
);

export const SessionListSchema = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(Type.Ref('VisitorSession')),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
