/**
 * What screening and monitoring read of a watchlist's versions, in the tenant's transaction: the
 * digest a screening records for each watchlist version, and the entries one version added or
 * changed (a monitoring run re-screens against those only, watchlist-indexes.ts).
 */
import type { TenantTransaction } from '../../db/tenant.ts';
import { mapInTurns } from '../../screening/steps.ts';
import type { Watchlist, WatchlistEntry } from './model.ts';
import type { IndexedWatchlist } from './organization-index.ts';
import { entryOf } from './store.ts';

/** A watchlist version as a screening names it (`list_versions[].version_id`, `matches[].list_version`) and a monitoring run its version. */
export const watchlistVersionId = (watchlistId: string, version: number) => `${watchlistId}@${version}`;

/** The watchlist and version a `watchlistVersionId` names; undefined for any other id (a public list's `lv_…`). */
export function watchlistVersionOf(id: string): { watchlistId: string; version: number } | undefined {
  const found = /^(wl_[0-9a-z]{26})@([1-9][0-9]*)$/.exec(id);
  return found ? { watchlistId: found[1] as string, version: Number(found[2]) } : undefined;
}

/** The watchlists with the content digest of each one's current version, as an index holds them: one statement of one shape, however many. */
export async function withCurrentDigests(trx: TenantTransaction, watchlists: readonly Watchlist[]): Promise<IndexedWatchlist[]> {
  if (watchlists.length === 0) return [];
  const digests = await currentVersionDigests(trx);
  return watchlists.map((w) => ({ ...w, contentSha256: digests.get(w.id) ?? null }));
}

/** The content digest of each live watchlist's current version (watchlist id → SHA-256). */
async function currentVersionDigests(trx: TenantTransaction): Promise<Map<string, string>> {
  const rows = await trx
    .selectFrom('watchlist_versions as v')
    .innerJoin('watchlists as w', (join) =>
      join.onRef('w.organization_id', '=', 'v.organization_id').onRef('w.id', '=', 'v.watchlist_id').onRef('w.version', '=', 'v.version'),
    )
    .select(['v.watchlist_id', 'v.content_sha256'])
    .where('w.deleted_at', 'is', null)
    .execute();
  return new Map(rows.map((row) => [row.watchlist_id, row.content_sha256]));
}

/** When a version of a watchlist was written; undefined when there is no such version. */
export async function versionWrittenAt(trx: TenantTransaction, watchlistId: string, version: number): Promise<Date | undefined> {
  const row = await trx
    .selectFrom('watchlist_versions')
    .select('created_at')
    .where('watchlist_id', '=', watchlistId)
    .where('version', '=', version)
    .executeTakeFirst();
  return row && new Date(row.created_at);
}

/**
 * The entries a version added or changed that no later version changed again (a later one has its
 * own run), as they are now: one indexed read, however many the version touched.
 */
export async function entriesLastChangedAt(trx: TenantTransaction, watchlistId: string, version: number): Promise<WatchlistEntry[]> {
  const rows = await trx
    .selectFrom('watchlist_entries')
    .selectAll()
    .where('watchlist_id', '=', watchlistId)
    .where('version', '=', version)
    .where('removed_at', 'is', null)
    .orderBy('id')
    .execute();
  return mapInTurns(rows, entryOf);
}
