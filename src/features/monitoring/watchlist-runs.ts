/**
 * Monitoring runs for an organization's watchlists: a version of a watchlist that added or changed
 * entries queues a run in the same transaction (the watchlist change hook, subscribed by the
 * composition root), and the run re-screens the organization's watched subjects against those
 * entries only, as a run for a public list version does against its changed entities. The public
 * lists are not screened again, nor the watchlist's other entries.
 */
import type { AuditContext } from '../../audit/audit.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import { newId } from '../../ids.ts';
import { type ListSnapshot, snapshotInPlace } from '../../lists/catalog.ts';
import type { RarityTable } from '../../screening/index/vocabulary.ts';
import { buildScreeningIndex } from '../../screening/screening-index.ts';
import type { ScreenOptions } from '../screenings/pipeline.ts';
import type { WatchlistChange } from '../watchlists/change-hook.ts';
import { watchlistListCode } from '../watchlists/model.ts';
import { watchlistVersionId, watchlistVersionOf } from '../watchlists/version-reads.ts';
import { versionChangesIndexed } from '../watchlists/watchlist-indexes.ts';
import { queueRun, type RunRow } from './store.ts';

/** What a run screens against, and the moment its entries appeared (a subject screened in full since met them already). */
export type RunTarget = { importedAt: Date; options: Pick<ScreenOptions, 'snapshot' | 'watchlists'> };

/** A screening against no public list: a watchlist run screens the changed watchlist entries alone. */
const NO_LISTS: ListSnapshot = snapshotInPlace([], [], buildScreeningIndex([]), 0);

/** The hook's handler: a run for a version that added or changed entries (one that only removed some finds nothing new). */
export async function queueWatchlistRun(trx: TenantTransaction, context: AuditContext, change: WatchlistChange): Promise<void> {
  const changed = change.added.length + change.changed.length;
  if (changed === 0) return;
  await queueRun(trx, context.actor.organizationId, {
    id: newId('mon'),
    list: watchlistListCode(change.slug),
    list_version_id: watchlistVersionId(change.watchlistId, change.version),
    previous_version_id: watchlistVersionId(change.watchlistId, change.version - 1),
    changed_entries: changed,
    created_at: new Date(),
  });
}

/** Whether a run is a watchlist's (its version id names one). */
export const isWatchlistRun = (run: Pick<RunRow, 'list_version_id'>) => watchlistVersionOf(run.list_version_id) !== undefined;

/** The entries the run's version added or changed, indexed by the watchlists feature (watchlist-indexes.ts). */
export async function watchlistRunTarget(trx: TenantTransaction, run: Pick<RunRow, 'list_version_id'>, rarity: RarityTable | undefined): Promise<RunTarget> {
  const { watchlistId, version } = watchlistVersionOf(run.list_version_id) as { watchlistId: string; version: number };
  const { writtenAt, index } = await versionChangesIndexed(trx, watchlistId, version, rarity);
  return { importedAt: writtenAt ?? new Date(0), options: { snapshot: NO_LISTS, watchlists: index } };
}
