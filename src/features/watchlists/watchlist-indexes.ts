/**
 * Every organization's watchlist index in this process: built on an organization's first
 * screening, shared by its requests, kept current through the settings stamp, and bounded in
 * memory across organizations.
 *
 * The stamp (migrations 0035, 0037) moves with any change to an organization's watchlists or
 * entries (0048's trigger) and is read by every tenant transaction's first statement, so a
 * transaction that brings the stamp the index was caught up under uses the index as it is, with no
 * statement (an organization with no watchlists pays that compare and nothing more). Any other
 * stamp reads the live watchlists and, for each whose version moved, only the entries changed
 * after the version the index holds (store.ts), and applies those (organization-index.ts). As for
 * the stamped cache (src/db/stamped-cache.ts), the stamp is read before what it stands for, so an
 * index caught up under stamp s is at least as new as s.
 *
 * Memory: organizations weigh their entries (one for none); past `maxEntries` those unused the
 * longest are dropped, and so is any unused for `idleMs`. A dropped organization is built again
 * on its next screening.
 *
 * A monitoring run for one watchlist version screens against that version's changes alone,
 * indexed alike (`versionChangesIndexed`).
 */
import type { TenantTransaction } from '../../db/tenant.ts';
import { tenantSettingsOf } from '../../db/tenant.ts';
import type { RarityTable } from '../../screening/index/vocabulary.ts';
import type { WatchlistEntry } from './model.ts';
import { OrganizationIndex, type WatchlistScreen } from './organization-index.ts';
import { entriesChangedAfter, findWatchlist, liveWatchlists } from './store.ts';
import { entriesLastChangedAt, versionWrittenAt, withCurrentDigests } from './version-reads.ts';

export type WatchlistIndexOptions = {
  /** The words' rarity the indexes weigh by: the public lists' index's (see screening-index.ts IndexOptions). */
  rarity: () => RarityTable | undefined;
  /** The most entries kept across organizations. */
  maxEntries: number;
  /** An organization unused this long is dropped. */
  idleMs: number;
  /** Changed entries an organization's delta holds before its base is built again. */
  deltaLimit: number;
  /** The clock idleness is measured by. */
  now?: () => number;
  onError?: (error: unknown) => void;
};

/** About 1.8 KB of heap an entry (measured with 100,000): 250,000 entries are some 450 MB across organizations. */
export const DEFAULT_WATCHLIST_INDEX_OPTIONS = { maxEntries: 250_000, idleMs: 30 * 60_000, deltaLimit: 128 } as const;

/** What an organization with no active watchlist screens against. */
export const NO_WATCHLISTS: WatchlistScreen = { consulted: [], screen: () => [] };

type Kept = {
  organizationId: string;
  /** The stamp the index was caught up under. */
  stamp: string | undefined;
  /** Each live watchlist's version as applied. */
  versions: Map<string, number>;
  /** Null while the organization has never had a watchlist. */
  index: OrganizationIndex | null;
  weight: number;
  usedAt: number;
  catchingUp: Promise<unknown>;
};

export function createWatchlistIndexes(options: WatchlistIndexOptions) {
  const now = options.now ?? Date.now;
  // A Map iterates in insertion order: an organization is moved to the end when used, so the first is the one unused the longest.
  const kept = new Map<string, Kept>();
  let weight = 0;

  const drop = (one: Kept) => {
    if (kept.get(one.organizationId) !== one) return;
    weight -= one.weight;
    kept.delete(one.organizationId);
  };
  /** Marks the organization used (kept again if it was dropped while it caught up). */
  const use = (one: Kept) => {
    const held = kept.get(one.organizationId);
    if (held) drop(held);
    one.usedAt = now();
    kept.set(one.organizationId, one);
    weight += one.weight;
  };
  const reweigh = (one: Kept, next: number) => {
    if (kept.get(one.organizationId) === one) weight += next - one.weight;
    one.weight = next;
  };
  /** Drops the idle from the front, then the unused longest until what is kept fits. */
  const trim = () => {
    for (const one of kept.values()) {
      if (now() - one.usedAt < options.idleMs && weight <= options.maxEntries) break;
      drop(one);
    }
  };

  /** The organization's watchlists, if the index was caught up under this transaction's stamp: no statement. */
  function current(trx: TenantTransaction): WatchlistScreen | undefined {
    const { organizationId, settingsStamp } = tenantSettingsOf(trx);
    const one = kept.get(organizationId);
    if (one?.stamp !== settingsStamp) return undefined;
    use(one);
    // The organization unused the longest goes once idle, even when nothing changes anywhere.
    const oldest = kept.values().next().value as Kept;
    if (now() - oldest.usedAt >= options.idleMs) drop(oldest);
    return one.index ?? NO_WATCHLISTS;
  }

  /** Catches the organization's index up in this transaction; one catch-up at a time per organization. */
  async function catchUp(trx: TenantTransaction): Promise<WatchlistScreen> {
    const { organizationId, settingsStamp } = tenantSettingsOf(trx);
    const one = kept.get(organizationId) ?? {
      organizationId,
      stamp: undefined,
      versions: new Map(),
      index: null,
      weight: 1,
      usedAt: now(),
      catchingUp: Promise.resolve(),
    };
    use(one);
    const done = one.catchingUp.then(async () => {
      if (one.stamp !== settingsStamp) await read(trx, one, settingsStamp);
    });
    one.catchingUp = done.catch(() => undefined);
    await done;
    use(one);
    trim();
    return one.index ?? NO_WATCHLISTS;
  }

  async function read(trx: TenantTransaction, one: Kept, stamp: string) {
    const watchlists = await liveWatchlists(trx);
    const live = new Set(watchlists.map((w) => w.id));
    const moved = watchlists.filter((w) => one.versions.get(w.id) !== w.version);
    if (moved.length > 0 || [...one.versions.keys()].some((id) => !live.has(id))) {
      let entries: WatchlistEntry[] = [];
      // Concatenated, not pushed as arguments: a watchlist of 150,000 entries is past how many arguments a call takes.
      for (const w of moved) entries = entries.concat(await entriesChangedAfter(trx, w.id, one.versions.get(w.id) ?? 0));
      const indexed = await withCurrentDigests(trx, watchlists);
      one.index ??= new OrganizationIndex({ rarity: options.rarity, deltaLimit: options.deltaLimit, ...(options.onError && { onError: options.onError }) });
      await one.index.apply({ watchlists: indexed, entries });
      one.versions = new Map(watchlists.map((w) => [w.id, w.version]));
      reweigh(one, one.index.size + 1);
    }
    one.stamp = stamp;
  }

  return {
    /** The organization's watchlists as of this transaction: at once when its stamp is the one kept, else after catching up. */
    of: (trx: TenantTransaction): WatchlistScreen | Promise<WatchlistScreen> => current(trx) ?? catchUp(trx),
    /** The index kept for an organization, if any (null: it has no watchlist): what a test or a metric looks at. */
    held: (organizationId: string) => kept.get(organizationId)?.index,
    /** Organizations and entries kept. */
    size: () => ({ organizations: kept.size, entries: weight - kept.size }),
  };
}

export type WatchlistIndexes = ReturnType<typeof createWatchlistIndexes>;

/**
 * The entries a version added or changed, as they are now, indexed as the organization's
 * watchlists are, with the moment the version was written (a subject screened in full since met
 * them already). The index is empty when the watchlist has since been deleted; a deactivated one
 * matches nothing.
 */
export async function versionChangesIndexed(
  trx: TenantTransaction,
  watchlistId: string,
  version: number,
  rarity: RarityTable | undefined,
): Promise<{ writtenAt: Date | undefined; index: OrganizationIndex }> {
  const writtenAt = await versionWrittenAt(trx, watchlistId, version);
  const index = new OrganizationIndex({ rarity: () => rarity, deltaLimit: DEFAULT_WATCHLIST_INDEX_OPTIONS.deltaLimit });
  const watchlist = await findWatchlist(trx, watchlistId);
  if (watchlist) await index.apply({ watchlists: await withCurrentDigests(trx, [watchlist]), entries: await entriesLastChangedAt(trx, watchlistId, version) });
  return { writtenAt, index };
}
