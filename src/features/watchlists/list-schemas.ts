/**
 * The paged lists of the watchlists API: watchlists, a watchlist's entries (with their filters)
 * and its versions. Every list pages one way: `limit` and `cursor` in, `has_more` and
 * `next_cursor` out.
 */
import { type TSchema, Type } from 'typebox';
import { NextCursor } from '../../http/id-page.ts';
import { enumOf } from '../../http/text-fields.ts';
import { ENTRY_STATUSES, ENTRY_TYPES, SEVERITIES } from './model.ts';

const Limit = Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'At most this many items.' }));
const Cursor = Type.Optional(Type.String({ maxLength: 300, description: 'The `next_cursor` of the page before.' }));

export const pageOf = (item: TSchema, description: string) =>
  Type.Object({ object: Type.Literal('list'), data: Type.Array(item), has_more: Type.Boolean(), next_cursor: NextCursor }, { description });

export const WatchlistsQuery = Type.Object(
  {
    active: Type.Optional(Type.Boolean({ description: 'Only watchlists that are (true) or are not (false) active.' })),
    limit: Limit,
    cursor: Cursor,
  },
  { additionalProperties: false },
);

export const EntriesQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Only entries with a name (primary or alias) containing this, case-insensitively.',
        examples: ['reyes'],
      }),
    ),
    severity: Type.Optional(enumOf(SEVERITIES, 'Only entries of this severity.')),
    type: Type.Optional(enumOf(ENTRY_TYPES, 'Only entries of this type.')),
    status: Type.Optional(
      enumOf(ENTRY_STATUSES, 'Only entries in this status: `active`, `expired` (past `expires_at`) or `removed`. Without it: active and expired, not removed.'),
    ),
    external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'Only the entry with this external id.', examples: ['HR-20931'] })),
    updated_after: Type.Optional(
      Type.String({ format: 'date-time', description: 'Only entries added, changed or removed after this instant.', examples: ['2026-11-01T00:00:00Z'] }),
    ),
    limit: Limit,
    cursor: Cursor,
  },
  { additionalProperties: false },
);

export const VersionsQuery = Type.Object({ limit: Limit, cursor: Cursor }, { additionalProperties: false });
