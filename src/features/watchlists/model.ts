/**
 * An organization's watchlists and their entries as the service reads them: the shapes the store
 * answers, the API presents, and the watchlist index (screened beside the public lists) is built
 * from. Pure.
 */

/** What a match on the entry does at the door, as the organization's rules map it (cases/rules.ts). */
export const SEVERITIES = ['red', 'orange', 'yellow'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const ENTRY_TYPES = ['person', 'organization', 'vessel'] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];

/** A watchlist's entries are screened under this list code, as a public list's are under OFAC_SDN. */
export const watchlistListCode = (slug: string) => `ORG:${slug}`;

export type Watchlist = {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  /** The alert threshold for its entries; null: the organization's match threshold. */
  threshold: number | null;
  active: boolean;
  version: number;
  entryCount: number;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
};

export type EntryName = { full: string; kind: 'primary' | 'strong_alias' };
export type EntryIdentifier = { type: string; value: string; country?: string };

export type WatchlistEntry = {
  id: string;
  watchlistId: string;
  externalId: string | null;
  type: EntryType;
  /** The primary name first, then aliases. */
  names: EntryName[];
  /** ISO dates known to a year, a month or a day: 1971, 1971-04, 1971-04-02. */
  datesOfBirth: string[];
  /** ISO 3166-1 alpha-2. */
  countries: string[];
  identifiers: EntryIdentifier[];
  reason: string;
  severity: Severity;
  /** After this instant the entry matches nothing; it stays listed, as expired. */
  expiresAt: Date | null;
  addedBy: string;
  addedAt: Date;
  updatedBy: string;
  updatedAt: Date;
  /** Set when the entry was removed; a removed entry is kept for the versions that held it. */
  removedAt: Date | null;
  /** The watchlist version of the entry's last change. */
  version: number;
  sha256: string;
};

/** Whether the entry matches at `now`: not removed, not expired. */
export const entryMatchesAt = (entry: Pick<WatchlistEntry, 'removedAt' | 'expiresAt'>, now: Date) =>
  entry.removedAt === null && (entry.expiresAt === null || entry.expiresAt.getTime() > now.getTime());

/** Where an entry stands at an instant: matching, past its expiry, or removed. */
export const ENTRY_STATUSES = ['active', 'expired', 'removed'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

export const entryStatusAt = (entry: Pick<WatchlistEntry, 'removedAt' | 'expiresAt'>, now: Date): EntryStatus =>
  entry.removedAt !== null ? 'removed' : entryMatchesAt(entry, now) ? 'active' : 'expired';

/** What the caller states about an entry: what is screened, shown with a match, and when it stops applying. */
export type EntryFacts = Pick<WatchlistEntry, 'type' | 'names' | 'datesOfBirth' | 'countries' | 'identifiers' | 'reason' | 'severity' | 'expiresAt'>;

/** What one version of a watchlist did (watchlist_versions.change). */
export const VERSION_CHANGES = [
  'created',
  'updated',
  'deleted',
  'entries_added',
  'entries_changed',
  'entries_removed',
  'entries_upserted',
  'entries_replaced',
] as const;
export type VersionChange = (typeof VERSION_CHANGES)[number];

export type WatchlistVersion = {
  watchlistId: string;
  version: number;
  change: VersionChange;
  added: number;
  changed: number;
  removed: number;
  entryCount: number;
  /** Entry ids, by what the version did to them. */
  entries: { added: string[]; changed: string[]; removed: string[] };
  contentSha256: string;
  actor: string;
  requestId: string | null;
  createdAt: Date;
};
