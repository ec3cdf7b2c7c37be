/**
 * A watchlist found for a request, or 404: a deleted watchlist, and another organization's
 * (row-level security hides it), are not there, and neither are their entries and versions.
 */
import type { TenantTransaction } from '../../db/tenant.ts';
import { AppError } from '../../http/errors.ts';
import type { Watchlist } from './model.ts';
import { findWatchlist } from './store.ts';
import { lockWatchlist } from './watchlist-writes.ts';

export async function liveWatchlist(trx: TenantTransaction, id: string): Promise<Watchlist> {
  return (await findWatchlist(trx, id)) ?? watchlistNotFound(id);
}

/** The live watchlist, its row locked for a change (watchlist-writes.ts), or 404. */
export async function lockedWatchlist(trx: TenantTransaction, id: string): Promise<Watchlist> {
  return (await lockWatchlist(trx, id)) ?? watchlistNotFound(id);
}

function watchlistNotFound(id: string): never {
  throw new AppError('not_found', `There is no watchlist ${id} in your organization.`);
}
