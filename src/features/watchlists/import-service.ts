/**
 * A watchlist's entries in bulk: an import (JSON or CSV, `upsert` or `replace`) checked whole,
 * compared with what the watchlist holds, and written as one version in one transaction, all or
 * nothing; an import that changes nothing makes no version.
 */
import type { AuditContext } from '../../audit/audit.ts';
import { newId } from '../../ids.ts';
import { DEFAULT_SLICE_MS, inTurns } from '../../screening/steps.ts';
import { insertEntries, removeEntries, updateEntries } from './entry-writes.ts';
import { checkedImport, type ImportSource, refuseRows } from './import-input.ts';
import { type ImportMode, planImport, refuseLargeRemoval } from './import-plan.ts';
import { IMPORT_SHRINK_LIMIT_PERCENT } from './import-schemas.ts';
import type { WatchlistDeps } from './service-deps.ts';
import { liveEntries } from './store.ts';
import { actorOf, writeVersion } from './version-writes.ts';
import { lockedWatchlist } from './watchlist-lookup.ts';

export type ImportResult = {
  watchlistId: string;
  mode: ImportMode;
  version: number | null;
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
  entryCount: number;
};

export function createImportService({ withTenant, changed, clock = () => new Date() }: WatchlistDeps) {
  return {
    async importEntries(
      context: AuditContext,
      watchlistId: string,
      source: ImportSource,
      options: { mode: ImportMode; allowShrink: boolean },
    ): Promise<ImportResult> {
      const rows = await checkedImport(source);
      return withTenant(context.actor, async (trx) => {
        const watchlist = await lockedWatchlist(trx, watchlistId);
        const live = await liveEntries(trx, watchlistId);
        const at = clock();
        const plan = await inTurns(
          planImport(rows, live, options.mode, at, () => newId('wle', at.getTime())),
          DEFAULT_SLICE_MS,
        );
        if (plan.errors.length > 0) refuseRows(source, plan.errors);
        const removing = plan.removals.length;
        refuseLargeRemoval({
          live: live.length,
          inRequest: rows.length,
          removing,
          limitPercent: IMPORT_SHRINK_LIMIT_PERCENT,
          allowShrink: options.allowShrink,
        });
        const counts = { added: plan.adds.length, changed: plan.changes.length, removed: removing, unchanged: plan.unchanged };
        const result = { watchlistId, mode: options.mode, ...counts };
        if (counts.added + counts.changed + counts.removed === 0) return { ...result, version: null, entryCount: watchlist.entryCount };

        const entries = { added: plan.adds.map((e) => e.id), changed: plan.changes.map((e) => e.id), removed: plan.removals };
        const writeEntries = async (version: number) => {
          const stamp = { version, actor: actorOf(context), at };
          await removeEntries(trx, plan.removals, stamp);
          await updateEntries(trx, plan.changes, stamp);
          await insertEntries(trx, context.actor.organizationId, watchlistId, plan.adds, stamp);
        };
        const change = options.mode === 'replace' ? 'entries_replaced' : 'entries_upserted';
        const audit = { action: 'watchlist.entries_imported', details: { mode: options.mode, format: source.format, unchanged: plan.unchanged } };
        const after = await writeVersion(trx, context, changed, watchlistId, { change, entries, writeEntries, audit }, at);
        return { ...result, version: after.version, entryCount: after.entryCount };
      });
    },
  };
}
