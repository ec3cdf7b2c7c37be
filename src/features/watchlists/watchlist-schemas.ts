/**
 * A watchlist's own shapes in the API, and its versions': one schema validates, serializes and
 * documents each.
 */
import { Type } from 'typebox';
import { enumOf, text } from '../../http/text-fields.ts';
import { WATCHLIST_SLUG_PATTERN } from '../../screening/model.ts';
import { EXAMPLE_ENTRY_ID, EXAMPLE_WATCHLIST_ID, WATCHLIST_ID } from './entry-schemas.ts';
import { VERSION_CHANGES } from './model.ts';

const Slug = Type.String({
  pattern: `^${WATCHLIST_SLUG_PATTERN}$`,
  description:
    'A short name, unique among the organization’s watchlists (a deleted one’s is free again): lower-case letters, digits, `-` and `_`, up to 40. ' +
    'Matches on the watchlist are labelled `ORG:<slug>`, as a public list’s are `OFAC_SDN`.',
  examples: ['do-not-admit'],
});
const Name = text(200, 'What the watchlist is, for people.');
const Description = Type.String({
  maxLength: 2000,
  description: 'What it holds and who keeps it.',
  examples: ['Former staff and others barred from every site. Kept by Security.'],
});
const Threshold = Type.Union([Type.Number({ minimum: 0.5, maximum: 1 }), Type.Null()], {
  description:
    'The score from which a match on this watchlist’s entries alerts, 0.5 to 1; null (the default): the organization’s match threshold (its adjudication rules).',
  examples: [0.85],
});
const Active = Type.Boolean({ description: 'An inactive watchlist is kept and editable but matches nothing. Default true.', examples: [true] });

export const CreateWatchlistBody = Type.Object(
  {
    slug: Slug,
    name: Name,
    description: Type.Optional(Type.Union([Description, Type.Null()])),
    threshold: Type.Optional(Threshold),
    active: Type.Optional(Active),
  },
  {
    additionalProperties: false,
    examples: [
      { slug: 'do-not-admit', name: 'Do not admit', description: 'Former staff and others barred from every site. Kept by Security.', threshold: null },
    ],
  },
);

export const UpdateWatchlistBody = Type.Object(
  {
    slug: Type.Optional(Slug),
    name: Type.Optional(Name),
    description: Type.Optional(Type.Union([Description, Type.Null()])),
    threshold: Type.Optional(Threshold),
    active: Type.Optional(Active),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'The fields to change; the others keep their values.',
    examples: [{ active: false }, { threshold: 0.9 }],
  },
);

export const WatchlistSchema = Type.Object(
  {
    object: Type.Literal('watchlist'),
    id: Type.String({ description: 'The watchlist id, `wl_…`.', examples: [EXAMPLE_WATCHLIST_ID] }),
    slug: Slug,
    list_code: Type.String({ description: 'What its matches are labelled: `ORG:<slug>`.', examples: ['ORG:do-not-admit'] }),
    name: Type.String({ examples: ['Do not admit'] }),
    description: Type.Union([Type.String(), Type.Null()], { description: 'What it holds and who keeps it.' }),
    threshold: Type.Union([Type.Number(), Type.Null()], { description: 'Its alert threshold; null: the organization’s.', examples: [null] }),
    active: Active,
    version: Type.Integer({ minimum: 1, description: 'Its current version: every change to it or its entries makes one.', examples: [8] }),
    entry_count: Type.Integer({ minimum: 0, description: 'Its entries, active and expired (removed ones not counted).', examples: [253] }),
    created_by: Type.String({ description: 'Who created it.', examples: ['user:security.lead@example.com'] }),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time', description: 'Its last version’s time.' }),
  },
  { $id: 'Watchlist', description: 'An organization’s own watchlist, screened beside the public lists.' },
);

export const WatchlistParams = Type.Object({
  id: Type.String({ pattern: WATCHLIST_ID, description: 'The watchlist id, `wl_…`.', examples: [EXAMPLE_WATCHLIST_ID] }),
});

export const DeletedWatchlistSchema = Type.Object({
  object: Type.Literal('watchlist'),
  id: Type.String({ examples: [EXAMPLE_WATCHLIST_ID] }),
  deleted: Type.Literal(true),
  version: Type.Integer({ description: 'The version that deleted it.', examples: [9] }),
});

const Ids = (description: string) => Type.Array(Type.String({ examples: [EXAMPLE_ENTRY_ID] }), { description });
const count = (description: string, example: number) => Type.Integer({ minimum: 0, description, examples: [example] });

const versionFields = {
  object: Type.Literal('watchlist_version'),
  watchlist_id: Type.String({ examples: [EXAMPLE_WATCHLIST_ID] }),
  version: Type.Integer({ minimum: 1, description: 'Versions count from 1 (the creation), one per change, in the order they were made.', examples: [8] }),
  change: enumOf(
    VERSION_CHANGES,
    'What the version did: `created`, `updated` (the watchlist’s own fields), `deleted`, `entries_added`, `entries_changed`, `entries_removed` ' +
      '(one entry, through its route), `entries_upserted` or `entries_replaced` (an import).',
  ),
  added: count('Entries added.', 1),
  changed: count('Entries whose facts changed.', 0),
  removed: count('Entries removed.', 0),
  entry_count: count('The watchlist’s entries after it.', 253),
  content_sha256: Type.String({
    pattern: '^[0-9a-f]{64}$',
    description:
      'SHA-256 of what the watchlist held after this version: the lines `<entry id>:<entry sha256>`, one per entry not removed, in id order, joined by line feeds ' +
      '(an empty watchlist: the SHA-256 of nothing).',
    examples: ['e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  }),
  actor: Type.String({ description: 'Who made it.', examples: ['api_key:key_01jbz4r2c5y7a9c1e3g5j7l9nq'] }),
  request_id: Type.Union([Type.String(), Type.Null()], { description: 'The request that made it.', examples: ['req_01jbz4r2c5m7p9r1t3v5x7z9ab'] }),
  created_at: Type.String({ format: 'date-time' }),
};

export const VersionSummarySchema = Type.Object(versionFields, { description: 'A version of a watchlist: what changed, by whom, when.' });

export const VersionSchema = Type.Object(
  {
    ...versionFields,
    entries: Type.Object(
      { added: Ids('The entries it added.'), changed: Ids('The entries it changed.'), removed: Ids('The entries it removed.') },
      { description: 'The ids of the entries it touched (read them with `GET …/entries/{entry_id}`).' },
    ),
  },
  { description: 'A version of a watchlist, with the ids of the entries it added, changed and removed.' },
);

export const VersionParams = Type.Object({
  id: Type.String({ pattern: WATCHLIST_ID, description: 'The watchlist id, `wl_…`.', examples: [EXAMPLE_WATCHLIST_ID] }),
  version: Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'The version number.', examples: [8] }),
});
