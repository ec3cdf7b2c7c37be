/**
 * Watchlists, their entries and their versions in the tenant's transaction. Reads here; the
 * writes that make a version (entries added, changed, removed, the watchlist's version moved on
 * under its row lock) live beside them.
 */
import { fromJson } from '../../db/json.ts';
import type { Schema } from '../../db/schema.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import type { EntryIdentifier, EntryName, EntryType, Severity, Watchlist, WatchlistEntry } from './model.ts';

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

const WATCHLIST_COLUMNS = [
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
const ENTRY_COLUMNS = [
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
  return rows.map(entryOf);
}
