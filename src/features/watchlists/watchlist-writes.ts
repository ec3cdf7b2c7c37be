/**
 * A watchlist's own row: inserted at version 0 (its creation is version 1, written as every
 * version is, see version-writes.ts), and locked by every change before it reads what it
 * changes, so two changes of one watchlist never read the same state and versions commit in order.
 */
import type { TenantTransaction } from '../../db/tenant.ts';
import type { Watchlist } from './model.ts';
import { WATCHLIST_COLUMNS, watchlistOf } from './store.ts';

export type NewWatchlist = Pick<Watchlist, 'id' | 'slug' | 'name' | 'description' | 'threshold' | 'active' | 'createdBy'>;

export async function insertWatchlist(trx: TenantTransaction, organizationId: string, watchlist: NewWatchlist, at: Date): Promise<void> {
  await trx
    .insertInto('watchlists')
    .values({
      organization_id: organizationId,
      id: watchlist.id,
      slug: watchlist.slug,
      name: watchlist.name,
      description: watchlist.description,
      threshold: watchlist.threshold,
      active: watchlist.active,
      version: 0,
      entry_count: 0,
      created_by: watchlist.createdBy,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

/** The live watchlist, its row locked until the transaction ends; undefined when it is deleted or not the organization's. */
export async function lockWatchlist(trx: TenantTransaction, id: string): Promise<Watchlist | undefined> {
  const row = await trx.selectFrom('watchlists').select(WATCHLIST_COLUMNS).where('id', '=', id).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
  return row && watchlistOf(row);
}
