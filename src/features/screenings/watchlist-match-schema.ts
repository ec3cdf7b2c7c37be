/**
 * The `watchlist` of a match on one of the organization's own watchlists, as a screening answers
 * it: which watchlist, and why the entry is on it.
 */
import { Type } from 'typebox';
import { SEVERITIES } from '../watchlists/model.ts';

export const WatchlistOfMatchSchema = Type.Object(
  {
    id: Type.String({ description: 'The watchlist, `wl_…` (`GET /api/v1/watchlists/{id}`).' }),
    slug: Type.String({ description: 'Its slug: the match is labelled `ORG:<slug>` in `list`.' }),
    name: Type.String({ description: "The watchlist's name." }),
    severity: Type.Union(
      SEVERITIES.map((s) => Type.Literal(s)),
      {
        description:
          "The entry's severity. The adjudication rules' `watchlists` section says what each does: by default `red` denies (the case opens DENIED), " +
          '`orange` holds the subject for a decision (the case opens OPEN), `yellow` opens a case without holding (a visitor is checked in).',
      },
    ),
    reason: Type.String({ description: 'Why the entry is on the watchlist, as whoever added it wrote it.' }),
  },
  {
    description:
      "Present on a match on one of the organization's own watchlists (`list` is `ORG:<slug>`, `entry_id` the entry's `wle_…` id, " +
      "`list_version` the watchlist's version `wl_…@<n>`, `entry_sha256` the entry's content hash); absent on a public list's match.",
    examples: [
      {
        id: 'wl_01jbz4r2c6a1b3d5f7h9k1m3np',
        slug: 'do-not-admit',
        name: 'Do not admit',
        severity: 'red',
        reason: 'Made threats against staff (HR case 2026-114).',
      },
    ],
  },
);
