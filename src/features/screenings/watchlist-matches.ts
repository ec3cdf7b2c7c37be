/**
 * The organization's watchlists in a screening: each entry matched with the same engine and
 * options as the public lists, labelled `ORG:<slug>`, held to the watchlist's own threshold (else
 * the rules' for `ORG:<slug>`, else the match threshold), and each watchlist consulted named among
 * the list versions. Pure.
 */
import type { SubjectQuery } from '../../screening/match-types.ts';
import { type Watchlist, type WatchlistEntry, watchlistListCode } from '../watchlists/model.ts';
import type { IndexedWatchlist, WatchlistScreen } from '../watchlists/organization-index.ts';
import { watchlistVersionId } from '../watchlists/version-reads.ts';
import { matchRecord } from './match-record.ts';
import type { ListVersionRecord, MatchRecord, WatchlistOfMatch } from './screening-record.ts';

/** The threshold a watchlist's entries alert at, given each list's (the rules'). */
export const watchlistThreshold =
  (thresholdOf: (list: string) => number) =>
  (watchlist: Pick<Watchlist, 'slug' | 'threshold'>): number =>
    watchlist.threshold ?? thresholdOf(watchlistListCode(watchlist.slug));

export function watchlistMatches(
  watchlists: WatchlistScreen,
  query: SubjectQuery,
  field: (queryName: string) => MatchRecord['field'],
  options: { threshold: (watchlist: Watchlist) => number; reportFloor: number; limit: number; now: Date },
): MatchRecord[] {
  const { now, ...screenOptions } = options;
  return watchlists.screen(query, screenOptions, now).map(({ match, entry, watchlist }) =>
    matchRecord(match, field(match.queryName), {
      list: watchlistListCode(watchlist.slug),
      entry_sha256: entry.sha256,
      programs: [],
      list_version: watchlistVersionId(watchlist.id, watchlist.version),
      threshold: options.threshold(watchlist),
      watchlist: watchlistOfMatch(watchlist, entry),
    }),
  );
}

/** The `watchlist` of a match on one of its entries: which watchlist, and why the entry is on it. */
export const watchlistOfMatch = (watchlist: Watchlist, entry: Pick<WatchlistEntry, 'severity' | 'reason'>): WatchlistOfMatch => ({
  id: watchlist.id,
  slug: watchlist.slug,
  name: watchlist.name,
  severity: entry.severity,
  reason: entry.reason,
});

/** A watchlist consulted, as the screening's list versions name it. */
export const watchlistVersionRecord = (watchlist: IndexedWatchlist): ListVersionRecord => ({
  list: watchlistListCode(watchlist.slug),
  version_id: watchlistVersionId(watchlist.id, watchlist.version),
  published_on: null,
  imported_at: watchlist.updatedAt.toISOString(),
  sha256: watchlist.contentSha256 ?? '',
  entity_count: watchlist.entryCount,
});
