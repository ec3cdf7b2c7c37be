/**
 * The organization's watchlists in an ownership check's name screening: a party matching one of
 * its entries is reported beside the list matches, with the watchlist, severity and reason, and is
 * never a designation (the 50 Percent and Affiliates rules count OFAC and BIS listings, not an
 * organization's own lists). Each watchlist consulted is named among the versions screened.
 */
import type { SubjectKind } from '../../screening/match-types.ts';
import type { WatchlistOfMatch } from '../screenings/screening-record.ts';
import { watchlistOfMatch, watchlistThreshold, watchlistVersionRecord } from '../screenings/watchlist-matches.ts';
import { type Watchlist, watchlistListCode } from '../watchlists/model.ts';
import type { WatchlistScreen } from '../watchlists/organization-index.ts';
import { watchlistVersionId } from '../watchlists/version-reads.ts';

/** The organization's watchlists as a check screens them, and the rules' thresholds they are held to. */
export type OwnershipWatchlists = { screen: WatchlistScreen; thresholds: { match: number; lists: Record<string, number> } };

export type WatchlistMatchView = {
  list: string;
  entry_id: string;
  entry_name: string;
  matched_name: string;
  score: number;
  counted: false;
  programs: string[];
  list_version: string;
  explanation: string;
  watchlist: WatchlistOfMatch;
};

/** A party's matches on the watchlists, at or above each watchlist's threshold. */
export function watchlistMatchViews(
  watchlists: OwnershipWatchlists,
  query: { name: string; kind: SubjectKind; countries: string[] },
  limit: number,
  now: Date,
): WatchlistMatchView[] {
  const threshold: (watchlist: Watchlist) => number = watchlistThreshold((list) => watchlists.thresholds.lists[list] ?? watchlists.thresholds.match);
  return watchlists.screen.screen(query, { threshold, limit }, now).map(({ match, entry, watchlist }) => ({
    list: watchlistListCode(watchlist.slug),
    entry_id: entry.id,
    entry_name: match.entity.names[0]?.full ?? match.matchedName.full,
    matched_name: match.matchedName.full,
    score: match.score,
    counted: false,
    programs: [],
    list_version: watchlistVersionId(watchlist.id, watchlist.version),
    explanation: match.explanation.summary,
    watchlist: watchlistOfMatch(watchlist, entry),
  }));
}

/** Each watchlist consulted, as the check's screening summary names the versions screened (a screening's record of it, its hash as `source_sha256`). */
export const watchlistVersionViews = (watchlists: OwnershipWatchlists | undefined) =>
  (watchlists?.screen.consulted ?? []).map((w) => {
    const { sha256, entity_count: _, ...version } = watchlistVersionRecord(w);
    return { ...version, source_sha256: sha256 };
  });
