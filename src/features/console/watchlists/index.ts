/**
 * The console's watchlist pages: the organization's watchlists, each one's entries (searched,
 * added, changed, expired, removed, imported from a CSV file) and its history. They call the
 * watchlist service the API's routes call, and each page declares the access its API route does.
 */
import type { ReadTrail } from '../../../audit/read-trail.ts';
import type { Api } from '../../../http/feature.ts';
import type { WatchlistService } from '../../watchlists/service.ts';
import { registerEntryPages } from './entry-pages.ts';
import { registerHistoryPages } from './history-pages.ts';
import { registerImportPage } from './import-page.ts';
import { registerWatchlistsPage } from './list-page.ts';
import { registerSettingsPage } from './settings-page.ts';
import { registerWatchlistPage } from './watchlist-page.ts';

export function registerWatchlistPages(api: Api, deps: { watchlists: WatchlistService; reads: ReadTrail }) {
  registerWatchlistsPage(api, deps);
  registerWatchlistPage(api, deps);
  registerSettingsPage(api, deps);
  registerEntryPages(api, deps);
  registerImportPage(api, deps);
  registerHistoryPages(api, deps);
}
