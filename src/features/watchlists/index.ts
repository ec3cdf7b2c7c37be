/**
 * Watchlists: an organization's own lists of people, organizations and vessels, screened beside
 * the public lists (their index and their use in screening live with the screening pipeline).
 * Here: the watchlists as an API resource, their entries one at a time and in bulk (JSON and
 * CSV, and an export that imports back), and their versions. Every change is a version, audited,
 * announced as `watchlist.changed`, and run through the change hook (change-hook.ts).
 */
import type { Feature } from '../../http/feature.ts';
import { registerEntryRoutes } from './entry-routes.ts';
import { EntrySchema } from './entry-schemas.ts';
import { registerImportRoutes } from './import-routes.ts';
import type { WatchlistService } from './service.ts';
import { registerWatchlistRoutes } from './watchlist-routes.ts';
import { WatchlistSchema } from './watchlist-schemas.ts';

const watchlists: Feature<{ watchlists: WatchlistService }> = {
  name: 'watchlists',
  async register(api, { reads }, { watchlists: service }) {
    api.addSchema(WatchlistSchema);
    api.addSchema(EntrySchema);
    registerWatchlistRoutes(api, service);
    registerEntryRoutes(api, service, reads);
    // Their own scope: its JSON parser streams, and it reads CSV.
    await api.register(async (scope) => registerImportRoutes(scope as typeof api, service, reads));
  },
};

export default watchlists;
