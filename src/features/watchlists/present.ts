/**
 * Watchlists, entries, versions and imports as callers see them: snake_case, dates as ISO 8601,
 * an entry's status as of the answer.
 */
import { entryBodyOf } from './entry-input.ts';
import type { ImportResult } from './import-service.ts';
import { entryStatusAt, type Watchlist, type WatchlistEntry, type WatchlistVersion, watchlistListCode } from './model.ts';
import type { VersionSummary } from './store.ts';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function presentWatchlist(watchlist: Watchlist) {
  return {
    object: 'watchlist' as const,
    id: watchlist.id,
    slug: watchlist.slug,
    list_code: watchlistListCode(watchlist.slug),
    name: watchlist.name,
    description: watchlist.description,
    threshold: watchlist.threshold,
    active: watchlist.active,
    version: watchlist.version,
    entry_count: watchlist.entryCount,
    created_by: watchlist.createdBy,
    created_at: watchlist.createdAt.toISOString(),
    updated_at: watchlist.updatedAt.toISOString(),
  };
}

export function presentEntry(entry: WatchlistEntry, now: Date) {
  return {
    object: 'watchlist_entry' as const,
    id: entry.id,
    watchlist_id: entry.watchlistId,
    // Its facts as an import and an export write them.
    ...entryBodyOf(entry),
    status: entryStatusAt(entry, now),
    added_by: entry.addedBy,
    added_at: entry.addedAt.toISOString(),
    updated_by: entry.updatedBy,
    updated_at: entry.updatedAt.toISOString(),
    removed_at: iso(entry.removedAt),
    version: entry.version,
    sha256: entry.sha256,
  };
}

export function presentVersionSummary(version: VersionSummary) {
  return {
    object: 'watchlist_version' as const,
    watchlist_id: version.watchlistId,
    version: version.version,
    change: version.change,
    added: version.added,
    changed: version.changed,
    removed: version.removed,
    entry_count: version.entryCount,
    content_sha256: version.contentSha256,
    actor: version.actor,
    request_id: version.requestId,
    created_at: version.createdAt.toISOString(),
  };
}

export const presentVersion = (version: WatchlistVersion) => ({ ...presentVersionSummary(version), entries: version.entries });

export function presentImport(result: ImportResult) {
  return {
    object: 'watchlist_import' as const,
    watchlist_id: result.watchlistId,
    mode: result.mode,
    version: result.version,
    added: result.added,
    changed: result.changed,
    removed: result.removed,
    unchanged: result.unchanged,
    entry_count: result.entryCount,
  };
}
