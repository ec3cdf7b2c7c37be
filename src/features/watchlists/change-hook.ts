/**
 * A new version of a watchlist's entries, for what reacts to it inside the same transaction (a
 * monitoring run that re-screens the organization's subjects against the entries that changed):
 * run by the watchlist service after it writes the version, before it commits.
 */
import type { TransactionHook } from '../../events/transaction-hook.ts';
import type { VersionChange } from './model.ts';

export type WatchlistChange = {
  watchlistId: string;
  slug: string;
  version: number;
  /** What the version did; one of the watchlist's own fields (`created`, `updated`, `deleted`) touches no entry. */
  change: VersionChange;
  /** Entry ids: added, changed (a screened fact, the severity, the expiry…) and removed in this version. */
  added: string[];
  changed: string[];
  removed: string[];
};

export type WatchlistChangeHook = TransactionHook<WatchlistChange>;
