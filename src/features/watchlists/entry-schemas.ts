/**
 * A watchlist entry's shapes in the API: one schema validates, serializes and documents each.
 * The same fields serve one entry added, a PATCH, a JSON import's rows and a JSON export's.
 */
import { type TSchema, Type } from 'typebox';
import { identifiersField } from '../../http/identifier-fields.ts';
import { countryCode, enumOf, NO_CONTROL, prose, text } from '../../http/text-fields.ts';
import { ENTRY_STATUSES, ENTRY_TYPES, SEVERITIES } from './model.ts';

export const WATCHLIST_ID = '^wl_[0-9a-z]{26}$';
export const ENTRY_ID = '^wle_[0-9a-z]{26}$';
export const EXAMPLE_WATCHLIST_ID = 'wl_01jbz4r2c6a1b3d5f7h9k1m3np';
export const EXAMPLE_ENTRY_ID = 'wle_01jbz4r2c7b2c4e6g8j0k2m4pq';

const MAX_ALIASES = 20;
const MAX_DATES_OF_BIRTH = 5;
const MAX_COUNTRIES = 10;
const NAME_LENGTH = 200;

const SEVERITY_TEXT =
  'What a match on the entry does at the door, as the organization’s adjudication rules map it: `red` (the most serious, e.g. deny outright), ' +
  '`orange` (e.g. hold for review) or `yellow` (e.g. open a case and let the visit go on).';

const EXTERNAL_ID_TEXT =
  'Your own key for the entry (an HR employee number, a case number): an import matches entries on it. Unique in the watchlist among entries not removed.';
const ExternalId = text(128, EXTERNAL_ID_TEXT);
const EntryType = enumOf(
  ENTRY_TYPES,
  'What the entry is: `person`, `organization` or `vessel` (default `person`). It decides which identifiers it may carry, and that only a person has a date of birth.',
);
const Name = Type.String({
  minLength: 1,
  maxLength: NAME_LENGTH,
  pattern: NO_CONTROL,
  description: 'The primary name, in any script, screened as the public lists’ names are. It may not contain `|` (the CSV list separator).',
  examples: ['Jordan Example Reyes'],
});
const Aliases = Type.Array(Type.String({ minLength: 1, maxLength: NAME_LENGTH, pattern: NO_CONTROL }), {
  maxItems: MAX_ALIASES,
  description: `Other names the entry is known by, up to ${MAX_ALIASES}, each screened as strongly as the primary name (strong aliases). A repeated name is kept once.`,
  examples: [['Jordan E. Reyes', 'J. Reyes']],
});
const DatesOfBirth = Type.Array(
  Type.String({ pattern: '^\\d{4}(-\\d{2}(-\\d{2})?)?$', description: '`YYYY`, `YYYY-MM` or `YYYY-MM-DD`, from 1900, not in the future.' }),
  {
    maxItems: MAX_DATES_OF_BIRTH,
    description: `A person’s dates of birth, as known (to the year, the month or the day), up to ${MAX_DATES_OF_BIRTH}: they corroborate or weaken a name match.`,
    examples: [['1984-06-02']],
  },
);
const Countries = Type.Array(countryCode('A country the entry is tied to (nationality, residence, registration).'), {
  maxItems: MAX_COUNTRIES,
  description: `Up to ${MAX_COUNTRIES} ISO 3166-1 alpha-2 codes (stored upper case).`,
  examples: [['US', 'MX']],
});
const Reason = prose(2000, 'Why the entry is on the watchlist (shown with every match, in cases and at the door). Required; line breaks are kept.');
const Severity = enumOf(SEVERITIES, SEVERITY_TEXT);
const EXPIRES_AT_TEXT =
  'After this instant the entry matches nothing; it stays listed, as `expired`. A new entry’s must be in the future. Omit (or null) for no expiry.';
const ExpiresAt = Type.String({ format: 'date-time', description: EXPIRES_AT_TEXT, examples: ['2027-06-30T00:00:00Z'] });
const nullable = <T extends TSchema>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });

/** The entry's own fields, as sent and as read back (the import's JSON rows and the export's). */
const entryFields = {
  external_id: Type.Optional(nullable(ExternalId, EXTERNAL_ID_TEXT)),
  type: Type.Optional(EntryType),
  name: Name,
  aliases: Type.Optional(Aliases),
  dates_of_birth: Type.Optional(DatesOfBirth),
  countries: Type.Optional(Countries),
  identifiers: Type.Optional(
    identifiersField(
      'The entry’s identity documents and numbers (a passport, a company registration, a vessel’s IMO), up to the limit; type:value[:country] in CSV',
    ),
  ),
  reason: Reason,
  severity: Severity,
  expires_at: Type.Optional(nullable(ExpiresAt, EXPIRES_AT_TEXT)),
};

export const ENTRY_EXAMPLE = {
  external_id: 'HR-20931',
  type: 'person',
  name: 'Jordan Example Reyes',
  aliases: ['Jordan E. Reyes'],
  dates_of_birth: ['1984-06-02'],
  countries: ['US'],
  identifiers: [{ type: 'national_id', value: '123-45-6789', country: 'US' }],
  reason: 'Employment terminated 2026-11-02; made threats against staff. Do not admit; call security.',
  severity: 'red',
  expires_at: null,
};

export const EntryBody = Type.Object(entryFields, { additionalProperties: false, examples: [ENTRY_EXAMPLE] });

export const EntryPatchBody = Type.Object(
  {
    ...entryFields,
    name: Type.Optional(Name),
    reason: Type.Optional(Reason),
    severity: Type.Optional(Severity),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description:
      'The fields to change; the others keep their values. A list field (aliases, countries…) is replaced whole; null clears `external_id` or `expires_at`.',
    examples: [{ severity: 'orange', expires_at: '2027-06-30T00:00:00Z' }],
  },
);

export const EntrySchema = Type.Object(
  {
    object: Type.Literal('watchlist_entry'),
    id: Type.String({ description: 'The entry id, `wle_…`; kept for the entry’s life, through changes and removal.', examples: [EXAMPLE_ENTRY_ID] }),
    watchlist_id: Type.String({ description: 'Its watchlist, `wl_…`.', examples: [EXAMPLE_WATCHLIST_ID] }),
    external_id: nullable(Type.String(), 'Your own key for it, or null.'),
    type: EntryType,
    name: Type.String({ description: 'The primary name.', examples: ['Jordan Example Reyes'] }),
    aliases: Type.Array(Type.String(), { description: 'Its other names.', examples: [['Jordan E. Reyes']] }),
    dates_of_birth: Type.Array(Type.String(), { description: 'As known: `YYYY`, `YYYY-MM` or `YYYY-MM-DD`.', examples: [['1984-06-02']] }),
    countries: Type.Array(Type.String(), { description: 'ISO 3166-1 alpha-2.', examples: [['US']] }),
    identifiers: Type.Array(
      Type.Object({
        type: Type.String({ examples: ['national_id'] }),
        value: Type.String({ examples: ['123-45-6789'] }),
        country: Type.Optional(Type.String({ examples: ['US'] })),
      }),
      { description: 'As given (values as written; matching compares them normalized).' },
    ),
    reason: Type.String({ description: 'Why it is on the watchlist.', examples: [ENTRY_EXAMPLE.reason] }),
    severity: Severity,
    expires_at: nullable(Type.String({ format: 'date-time' }), 'When it stops matching; null: never.'),
    status: enumOf(ENTRY_STATUSES, '`active` (it matches), `expired` (past `expires_at`) or `removed` (deleted, kept for the versions that held it).'),
    added_by: Type.String({ description: 'Who added it: `api_key:<key id>` or `user:<person>`.', examples: ['user:security.desk@example.com'] }),
    added_at: Type.String({ format: 'date-time', description: 'When it was added.' }),
    updated_by: Type.String({ description: 'Who changed it last (or removed it).', examples: ['api_key:key_01jbz4r2c5y7a9c1e3g5j7l9nq'] }),
    updated_at: Type.String({ format: 'date-time', description: 'When it was last changed (or removed).' }),
    removed_at: nullable(Type.String({ format: 'date-time' }), 'When it was removed; null while it is on the watchlist.'),
    version: Type.Integer({ minimum: 1, description: 'The watchlist version of its last change (see the versions).', examples: [7] }),
    sha256: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description:
        'SHA-256 of its facts as canonical JSON (type, names, dates of birth, countries, identifiers, reason, severity, expiry): equal facts, equal hash.',
      examples: ['9f2c1d0e8b7a6f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c'],
    }),
  },
  { $id: 'WatchlistEntry', description: 'An entry of a watchlist.' },
);

export const EntryParams = Type.Object({
  id: Type.String({ pattern: WATCHLIST_ID, description: 'The watchlist id, `wl_…`.', examples: [EXAMPLE_WATCHLIST_ID] }),
  entry_id: Type.String({ pattern: ENTRY_ID, description: 'The entry id, `wle_…`.', examples: [EXAMPLE_ENTRY_ID] }),
});
