/**
 * Entries read by id, removed ones too: what a version added, changed or removed, for a reader
 * who wants them by name (the console's page of one version). The caller bounds the ids.
 */
import type { TenantTransaction } from '../../db/tenant.ts';
import type { WatchlistEntry } from './model.ts';
import { ENTRY_COLUMNS, entryOf } from './store.ts';

export async function entriesWithIds(trx: TenantTransaction, watchlistId: string, ids: readonly string[]): Promise<WatchlistEntry[]> {
  if (ids.length === 0) return [];
  const rows = await trx
    .selectFrom('watchlist_entries')
    .select(ENTRY_COLUMNS)
    .where('watchlist_id', '=', watchlistId)
    .where('id', 'in', [...ids])
    .orderBy('id')
    .execute();
  return rows.map(entryOf);
}
