/**
 * Watchlists, their entries and their versions in the tenant's transaction. Reads here; the
 * writes that make a version (entries added, changed, removed, the watchlist's version moved on
 * under its row lock) live beside them.
 */
import { sql } from 'kysely';
import { fromJson } from '../../db/json.ts';
import type { Schema } from '../../db/schema.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import { mapInTurns } from '../../screening/steps.ts';
import type { EntryIdentifier, EntryName, EntryStatus, EntryType, Severity, VersionChange, Watchlist, WatchlistEntry, WatchlistVersion } from './model.ts';

declare module '../../db/schema.ts' {
  interface Schema {
    watchlists: {
      organization_id: string;
      id: string;
      slug: string;
      name: string;
      description: string | null;
      threshold: string | number | null;
      active: boolean;
      version: number;
      entry_count: number;
      created_by: string;
      created_at: Date | string;
      updated_at: Date | string;
      deleted_at: Date | string | null;
    };
    watchlist_entries: {
      organization_id: string;
      watchlist_id: string;
      id: string;
      external_id: string | null;
      type: EntryType;
      names: unknown;
      dates_of_birth: unknown;
      countries: unknown;
      identifiers: unknown;
      reason: string;
      severity: Severity;
      expires_at: Date | string | null;
      added_by: string;
      added_at: Date | string;
      updated_by: string;
      updated_at: Date | string;
      removed_at: Date | string | null;
      version: number;
      sha256: string;
    };
    watchlist_versions: {
      organization_id: string;
      watchlist_id: string;
      version: number;
      change: string;
      added: number;
      changed: number;
      removed: number;
      entry_count: number;
      entries: unknown;
      content_sha256: string;
      actor: string;
      request_id: string | null;
      created_at: Date | string;
    };
  }
}

type Rows = Schema;
export type WatchlistRow = Rows['watchlists'];
export type EntryRow = Rows['watchlist_entries'];

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));
const toDateOrNull = (value: Date | string | null) => (value === null ? null : toDate(value));

export function watchlistOf(row: Omit<WatchlistRow, 'organization_id'>): Watchlist {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    description: row.description,
    threshold: row.threshold === null ? null : Number(row.threshold),
    active: row.active,
    version: row.version,
    entryCount: row.entry_count,
    createdBy: row.created_by,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    deletedAt: toDateOrNull(row.deleted_at),
  };
}

export function entryOf(row: Omit<EntryRow, 'organization_id'>): WatchlistEntry {
  return {
    id: row.id,
    watchlistId: row.watchlist_id,
    externalId: row.external_id,
    type: row.type,
    names: fromJson<EntryName[]>(row.names),
    datesOfBirth: fromJson<string[]>(row.dates_of_birth),
    countries: fromJson<string[]>(row.countries),
    identifiers: fromJson<EntryIdentifier[]>(row.identifiers),
    reason: row.reason,
    severity: row.severity,
    expiresAt: toDateOrNull(row.expires_at),
    addedBy: row.added_by,
    addedAt: toDate(row.added_at),
    updatedBy: row.updated_by,
    updatedAt: toDate(row.updated_at),
    removedAt: toDateOrNull(row.removed_at),
    version: row.version,
    sha256: row.sha256,
  };
}

export const WATCHLIST_COLUMNS = [
  'id',
  'slug',
  'name',
  'description',
  'threshold',
  'active',
  'version',
  'entry_count',
  'created_by',
  'created_at',
  'updated_at',
  'deleted_at',
] as const;
export const ENTRY_COLUMNS = [
  'id',
  'watchlist_id',
  'external_id',
  'type',
  'names',
  'dates_of_birth',
  'countries',
  'identifiers',
  'reason',
  'severity',
  'expires_at',
  'added_by',
  'added_at',
  'updated_by',
  'updated_at',
  'removed_at',
  'version',
  'sha256',
] as const;

/** The organization's watchlists not deleted, active or not, by slug. */
export async function liveWatchlists(trx: TenantTransaction): Promise<Watchlist[]> {
  const rows = await trx.selectFrom('watchlists').select(WATCHLIST_COLUMNS).where('deleted_at', 'is', null).orderBy('slug').execute();
  return rows.map(watchlistOf);
}

/**
 * A watchlist's entries changed after `afterVersion` (added, changed or removed), removed ones
 * included: what an index that has read up to that version must apply to catch up.
 */
export async function entriesChangedAfter(trx: TenantTransaction, watchlistId: string, afterVersion: number): Promise<WatchlistEntry[]> {
  const rows = await trx
    .selectFrom('watchlist_entries')
    .select(ENTRY_COLUMNS)
    .where('watchlist_id', '=', watchlistId)
    .where('version', '>', afterVersion)
    .orderBy('id')
    .execute();
  // Turn by turn: a first read is every entry of the watchlist, 100,000 of them.
  return mapInTurns(rows, entryOf);
}

/** The watchlist, unless it is deleted (or another organization's: row-level security hides those). */
export async function findWatchlist(trx: TenantTransaction, id: string): Promise<Watchlist | undefined> {
  const row = await trx.selectFrom('watchlists').select(WATCHLIST_COLUMNS).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  return row && watchlistOf(row);
}

/** Live watchlists by id (creation order); `afterId` continues after the last of the page before. */
export async function listWatchlists(trx: TenantTransaction, filters: { active?: boolean }, afterId: string | undefined, limit: number): Promise<Watchlist[]> {
  let query = trx.selectFrom('watchlists').select(WATCHLIST_COLUMNS).where('deleted_at', 'is', null);
  if (filters.active !== undefined) query = query.where('active', '=', filters.active);
  if (afterId) query = query.where('id', '>', afterId);
  return (await query.orderBy('id').limit(limit).execute()).map(watchlistOf);
}

export async function findEntry(trx: TenantTransaction, watchlistId: string, id: string): Promise<WatchlistEntry | undefined> {
  const row = await trx.selectFrom('watchlist_entries').select(ENTRY_COLUMNS).where('watchlist_id', '=', watchlistId).where('id', '=', id).executeTakeFirst();
  return row && entryOf(row);
}

/** The entry not removed that has this external id (at most one: a unique index). */
export async function liveEntryWithExternalId(trx: TenantTransaction, watchlistId: string, externalId: string): Promise<{ id: string } | undefined> {
  return trx
    .selectFrom('watchlist_entries')
    .select('id')
    .where('watchlist_id', '=', watchlistId)
    .where('external_id', '=', externalId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
}

/** The watchlist's entries not removed (active and expired), by id: what an import is compared with, and what an export writes. */
export async function liveEntries(trx: TenantTransaction, watchlistId: string): Promise<WatchlistEntry[]> {
  const rows = await trx
    .selectFrom('watchlist_entries')
    .select(ENTRY_COLUMNS)
    .where('watchlist_id', '=', watchlistId)
    .where('removed_at', 'is', null)
    .orderBy('id')
    .execute();
  return mapInTurns(rows, entryOf);
}

export type EntryFilters = { q?: string; severity?: Severity; type?: EntryType; status?: EntryStatus; externalId?: string; updatedAfter?: Date };

/** A page of the watchlist's entries by id; without a status, those not removed. */
export async function listEntries(
  trx: TenantTransaction,
  watchlistId: string,
  filters: EntryFilters,
  page: { afterId?: string; limit: number; now: Date },
): Promise<WatchlistEntry[]> {
  let query = trx.selectFrom('watchlist_entries').select(ENTRY_COLUMNS).where('watchlist_id', '=', watchlistId);
  const { status, q } = filters;
  query = status === 'removed' ? query.where('removed_at', 'is not', null) : query.where('removed_at', 'is', null);
  if (status === 'active') query = query.where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', page.now)]));
  if (status === 'expired') query = query.where('expires_at', '<=', page.now);
  if (filters.severity) query = query.where('severity', '=', filters.severity);
  if (filters.type) query = query.where('type', '=', filters.type);
  if (filters.externalId) query = query.where('external_id', '=', filters.externalId);
  if (filters.updatedAfter) query = query.where('updated_at', '>', filters.updatedAfter);
  if (q) {
    // Any of its names, case-insensitively; the caller's text is matched literally (its % and _ too).
    const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where(sql<boolean>`exists (select 1 from jsonb_array_elements(names) as n where lower(n->>'full') like ${pattern})`);
  }
  if (page.afterId) query = query.where('id', '>', page.afterId);
  return (await query.orderBy('id').limit(page.limit).execute()).map(entryOf);
}

/** A version without the ids of the entries it touched (an import's may be tens of thousands): what a list of versions shows. */
export type VersionSummary = Omit<WatchlistVersion, 'entries'>;

const SUMMARY_COLUMNS = [
  'watchlist_id',
  'version',
  'change',
  'added',
  'changed',
  'removed',
  'entry_count',
  'content_sha256',
  'actor',
  'request_id',
  'created_at',
] as const;

function summaryOf(row: Omit<Rows['watchlist_versions'], 'organization_id' | 'entries'>): VersionSummary {
  return {
    watchlistId: row.watchlist_id,
    version: row.version,
    change: row.change as VersionChange,
    added: row.added,
    changed: row.changed,
    removed: row.removed,
    entryCount: row.entry_count,
    contentSha256: row.content_sha256,
    actor: row.actor,
    requestId: row.request_id,
    createdAt: toDate(row.created_at),
  };
}

/** The watchlist's versions, newest first; `beforeVersion` continues after the last of the page before. */
export async function listVersions(trx: TenantTransaction, watchlistId: string, beforeVersion: number | undefined, limit: number): Promise<VersionSummary[]> {
  let query = trx.selectFrom('watchlist_versions').select(SUMMARY_COLUMNS).where('watchlist_id', '=', watchlistId);
  if (beforeVersion !== undefined) query = query.where('version', '<', beforeVersion);
  return (await query.orderBy('version', 'desc').limit(limit).execute()).map(summaryOf);
}

export async function findVersion(trx: TenantTransaction, watchlistId: string, version: number): Promise<WatchlistVersion | undefined> {
  const row = await trx
    .selectFrom('watchlist_versions')
    .select([...SUMMARY_COLUMNS, 'entries'])
    .where('watchlist_id', '=', watchlistId)
    .where('version', '=', version)
    .executeTakeFirst();
  return row && { ...summaryOf(row), entries: fromJson<WatchlistVersion['entries']>(row.entries) };
}
