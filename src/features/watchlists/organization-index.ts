/**
 * One organization's watchlist entries, indexed for screening, kept current one change at a time.
 *
 * Two screening indexes: a base over most entries and a small delta over the entries changed since
 * the base was built. A change (an entry added, changed or removed) rebuilds the delta only; the
 * base entity an entry had before stays in the base, superseded, and is no longer accepted. Once the
 * delta and the superseded entities pass a bound, the base is built again in slices, off the
 * request path, while the current pair keeps answering; the new pair replaces it in one step.
 *
 * Which entity of an entry is current is kept by identity (`current`): a screening accepts an
 * entity only if it is the one its entry has now, its watchlist is live and active, and the entry
 * matches at the screening's moment (not removed, not expired: expiry needs no write). Changes and
 * base swaps take turns (`turns`), so each one starts from the state the previous one left.
 */
import type { RarityTable } from '../../screening/index/vocabulary.ts';
import type { ScreeningMatch, ScreeningOptions, SubjectQuery } from '../../screening/match-types.ts';
import type { ListEntity } from '../../screening/model.ts';
import { buildScreeningIndex, type ScreeningIndex, screeningIndexSteps } from '../../screening/screening-index.ts';
import { buildScreeningIndexInSlices } from '../../screening/screening-index-in-slices.ts';
import { DEFAULT_SLICE_MS, inTurns, mapInTurns } from '../../screening/steps.ts';
import { entryEntity } from './entry-entity.ts';
import { entryMatchesAt, type Watchlist, type WatchlistEntry } from './model.ts';

/** A watchlist as screened, with the digest of its current version's content (null before its first version row). */
export type IndexedWatchlist = Watchlist & { contentSha256: string | null };

/** A match on a watchlist entry: the engine's match, the entry as it is now and its watchlist. */
export type WatchlistMatch = { match: ScreeningMatch; entry: WatchlistEntry; watchlist: IndexedWatchlist };

/** The engine's options, with each watchlist's alert threshold in place of each list's. */
export type WatchlistScreenOptions = Omit<ScreeningOptions, 'threshold' | 'accept'> & { threshold: (watchlist: Watchlist) => number };

/** What screening reads of an organization's watchlists (this index, or a version's changed entries for monitoring). */
export interface WatchlistScreen {
  /** The active watchlists screened, by slug: each one is named in the screening's list versions. */
  readonly consulted: readonly IndexedWatchlist[];
  screen(query: SubjectQuery, options: WatchlistScreenOptions, now: Date): WatchlistMatch[];
}

/** The changes read since the index last caught up: every live watchlist, and the entries changed. */
export type WatchlistChanges = { watchlists: readonly IndexedWatchlist[]; entries: readonly WatchlistEntry[] };

export type OrganizationIndexOptions = {
  /** The words' rarity to weigh by (the public lists' index), read when a base is built. */
  rarity: () => RarityTable | undefined;
  /** Entries in the delta (and superseded in the base) past which the base is built again. */
  deltaLimit: number;
  /** Called when a base swap fails (the current pair keeps answering; the next change tries again). */
  onError?: (error: unknown) => void;
};

/** An entry as it is now, its entity, and whether the base holds that entity (or only the delta does). */
type Current = { entry: WatchlistEntry; entity: ListEntity; inBase: boolean };

const EMPTY_INDEX = buildScreeningIndex([]);

export class OrganizationIndex implements WatchlistScreen {
  private watchlists = new Map<string, IndexedWatchlist>();
  private consultedList: IndexedWatchlist[] = [];
  /** Every entry not removed (expired ones included), by id, with its entity now. */
  private readonly current = new Map<string, Current>();
  private baseIndex = EMPTY_INDEX;
  /** The current entities not in the base, by entry id. */
  private delta = new Map<string, ListEntity>();
  private deltaIndex = EMPTY_INDEX;
  /** Base entities no longer current (their entry changed or was removed). */
  private superseded = 0;
  private rarity: RarityTable | undefined;
  private turns: Promise<unknown> = Promise.resolve();
  private rebuilding: Promise<void> | undefined;
  /** How often each index was built: what a change cost. */
  readonly builds = { base: 0, delta: 0 };

  constructor(private readonly options: OrganizationIndexOptions) {}

  get consulted(): readonly IndexedWatchlist[] {
    return this.consultedList;
  }

  /** Entries held (current and superseded): what the index weighs in memory. */
  get size(): number {
    return this.current.size + this.superseded;
  }

  get deltaSize(): number {
    return this.delta.size;
  }

  screen(query: SubjectQuery, options: WatchlistScreenOptions, now: Date): WatchlistMatch[] {
    if (this.consultedList.length === 0) return [];
    const accept = (entity: ListEntity) => {
      const held = this.current.get(entity.entryId);
      return held?.entity === entity && this.watchlists.get(held.entry.watchlistId)?.active === true && entryMatchesAt(held.entry, now);
    };
    const engineOptions: ScreeningOptions = {
      ...options,
      threshold: (list) => options.threshold(this.watchlists.get(list) as IndexedWatchlist),
      accept,
    };
    const { lists: _publicOnly, ...watchlistQuery } = query;
    const found = [...this.baseIndex.screen(watchlistQuery, engineOptions), ...this.deltaIndex.screen(watchlistQuery, engineOptions)];
    const seen = new Set<string>();
    return found
      .sort((a, b) => b.score - a.score || a.entity.entryId.localeCompare(b.entity.entryId))
      .filter((m) => !seen.has(m.entity.entryId) && seen.add(m.entity.entryId))
      .slice(0, options.limit ?? found.length)
      .map((match) => {
        const { entry } = this.current.get(match.entity.entryId) as Current;
        return { match, entry, watchlist: this.watchlists.get(entry.watchlistId) as IndexedWatchlist };
      });
  }

  /** Applies what changed, rebuilding the delta only; the base is built again later if the delta grew past its bound. */
  apply(changes: WatchlistChanges): Promise<void> {
    return this.inTurn(async () => {
      const live = new Map(changes.watchlists.map((w) => [w.id, w]));
      const replaced = new Map<string, Current | null>();
      // A deleted watchlist takes its entries with it (looked for only when one went: a change costs what it changes).
      if ([...this.watchlists.keys()].some((id) => !live.has(id))) {
        for (const [id, held] of this.current) if (!live.has(held.entry.watchlistId)) replaced.set(id, null);
      }
      // Turn by turn: an organization's first 100,000 entries take most of a second to convert.
      const changed = await mapInTurns(
        changes.entries.filter((entry) => live.has(entry.watchlistId)),
        (entry): [string, Current | null] => [entry.id, entry.removedAt === null ? { entry, entity: entryEntity(entry), inBase: false } : null],
      );
      for (const [id, next] of changed) replaced.set(id, next);
      this.rarity ??= this.options.rarity();
      if (replaced.size === 0) {
        this.useWatchlists(live, changes.watchlists);
        return;
      }
      const delta = new Map(this.delta);
      for (const [id, next] of replaced) {
        if (next) delta.set(id, next.entity);
        else delta.delete(id);
      }
      // The first entries of an organization (or a bulk import into an empty one) make its base.
      const asBase = this.current.size === 0 && delta.size > this.options.deltaLimit;
      const index = await this.build([...delta.values()], asBase ? 'base' : 'delta');

      for (const [id, next] of replaced) {
        const before = this.current.get(id);
        if (before?.inBase) this.superseded += 1;
        if (next) this.current.set(id, next);
        else this.current.delete(id);
      }
      this.useWatchlists(live, changes.watchlists);
      if (asBase) {
        for (const held of this.current.values()) held.inBase = true;
        this.baseIndex = index;
        this.superseded = 0;
        this.delta = new Map();
        this.deltaIndex = EMPTY_INDEX;
      } else {
        this.delta = delta;
        this.deltaIndex = index;
      }
      if (this.overBound()) this.rebuildBase();
    });
  }

  private overBound(): boolean {
    return this.delta.size + this.superseded > this.options.deltaLimit;
  }

  private useWatchlists(live: Map<string, IndexedWatchlist>, watchlists: readonly IndexedWatchlist[]) {
    this.watchlists = live;
    this.consultedList = watchlists.filter((w) => w.active);
  }

  /** Resolves once no change is being applied and no base is being built. */
  async settled(): Promise<void> {
    while (this.rebuilding) await this.rebuilding;
    await this.turns;
  }

  /** A new base over every current entry, built in slices while this pair answers, then swapped in. */
  private rebuildBase() {
    if (this.rebuilding) return;
    const taken = [...this.current.values()].map((c) => c.entity);
    const rarity = this.options.rarity() ?? this.rarity;
    this.rebuilding = (async () => {
      const index = await this.build(taken, 'base', rarity, true);
      await this.inTurn(async () => {
        const inBase = new Set(taken);
        const delta = new Map<string, ListEntity>();
        for (const [id, { entity }] of this.current) if (!inBase.has(entity)) delta.set(id, entity);
        this.rarity = rarity;
        const deltaIndex = await this.build([...delta.values()], 'delta');
        for (const held of this.current.values()) held.inBase = inBase.has(held.entity);
        this.baseIndex = index;
        this.superseded = taken.length - (this.current.size - delta.size);
        this.delta = delta;
        this.deltaIndex = deltaIndex;
      });
    })()
      .catch((error) => this.options.onError?.(error))
      .finally(() => {
        this.rebuilding = undefined;
        // Changes applied while it was built may have filled the delta again.
        if (this.overBound()) this.rebuildBase();
      });
  }

  /**
   * A small set at once; a large one in slices, so that other requests are answered meanwhile: in
   * the background (a base built again) at background priority, and for a request waiting on it (a
   * first use, a bulk change) turn by turn, since waiting for the requests in flight would wait for itself.
   */
  private build(entities: readonly ListEntity[], what: 'base' | 'delta', rarity = this.rarity, background = false): Promise<ScreeningIndex> | ScreeningIndex {
    if (entities.length === 0) return EMPTY_INDEX;
    this.builds[what] += 1;
    const options = rarity ? { rarity } : {};
    if (entities.length <= this.options.deltaLimit) return buildScreeningIndex(entities, options);
    return background ? buildScreeningIndexInSlices(entities, options) : inTurns(screeningIndexSteps(entities, options), DEFAULT_SLICE_MS);
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const done = this.turns.then(work);
    this.turns = done.catch(() => undefined);
    return done;
  }
}
