/**
 * The lists as a running service sees them: every entity of the active versions, loaded from the
 * database into memory once and kept current by polling the set of active version ids, so a
 * version imported by `gatehouse lists import` in another process is picked up without a restart.
 * Each snapshot carries the screening index built over it; screening reads `current()`.
 *
 * A reload never stalls the service: it reads only the versions it has not loaded yet, and of a
 * version that follows one it has loaded only the entries that changed (an hourly refresh changes
 * a handful), and reuses the others. The entries are kept as text (stored-entries.ts); the index
 * is built on a thread of its own (index-thread.ts), and requests are answered from the previous
 * snapshot's until the new one is complete.
 */
import { AppError } from '../http/errors.ts';
import type { ListCode, ListEntity } from '../screening/model.ts';
import type { ScreeningIndex } from '../screening/screening-index.ts';
import { type IndexThread, startIndexThread } from './index-thread.ts';
import { indexInPlace, type ListIndex } from './list-index.ts';
import type { ListStore, ListVersion } from './list-store.ts';
import { followingEntries, type StoredEntries, storedEntity, storedEntries } from './stored-entries.ts';

/**
 * The active versions and the screening index over their entities, built together so that a
 * screening always names exactly the versions its index was built from.
 */
export type ListSnapshot = {
  versions: ListVersion[];
  index: ListIndex;
  /** One listed entity, for display (screening reads the index); undefined when no loaded version has it. */
  entity(list: string, entryId: string): ListEntity | undefined;
  /** The entry ids of a list's loaded version, in order. */
  entryIds(list: ListCode): readonly string[];
  loadedAt: Date;
  /** From the start of the index build to its end, including the slices of other work in between. */
  indexBuildMs: number;
};
export type SnapshotListener = (snapshot: ListSnapshot) => void;

export type ListCatalog = {
  /** The loaded lists, or undefined while none is. */
  current(): ListSnapshot | undefined;
  /** Calls `listener` with each new snapshot; returns the unsubscribe function. */
  subscribe(listener: SnapshotListener): () => void;
  /** Reloads if the active versions changed; resolves true when a new snapshot was taken. */
  refresh(): Promise<boolean>;
  /** Lists the configured sources provide that have no version loaded. */
  missing(): ListCode[];
  close(): void;
};

export type CatalogOptions = {
  refreshSeconds: number;
  expectedLists: ListCode[];
  /**
   * A failed poll is reported here and retried at the next tick; the last snapshot stays. So is an
   * index thread that stopped: its snapshot answers 503 until the next tick loads the lists again.
   */
  onError?: (error: unknown) => void;
  /** How a snapshot's index thread is started (index-thread.ts); a test passes one whose thread stops. */
  startIndex?: typeof startIndexThread;
};

/** Loads the active versions, then polls every `refreshSeconds`. */
export async function openListCatalog(store: ListStore, options: CatalogOptions): Promise<ListCatalog> {
  let snapshot: ListSnapshot | undefined;
  let loadedIds = '';
  /** The entries of each version loaded: a version's never change, so a reload reads only the new versions'. */
  let entriesByVersion = new Map<string, StoredEntries>();
  let inFlight: Promise<boolean> | undefined;
  let thread: IndexThread | undefined;
  let closed = false;
  const listeners = new Set<SnapshotListener>();

  const reload = async (): Promise<boolean> => {
    const ids = await store.activeVersionIds();
    if (ids.join(',') === loadedIds) return false;
    const versions = await store.activeVersions();
    // The ids and the versions are read separately: if an import landed in between, load again next time.
    const consistent =
      versions
        .map((v) => v.id)
        .sort()
        .join(',') === ids.join(',');
    if (!consistent) return false;
    const loaded = new Map<string, StoredEntries>();
    for (const version of versions) loaded.set(version.id, entriesByVersion.get(version.id) ?? (await entriesOfVersion(store, version, entriesByVersion)));
    // About a second of work for every list, on a thread of its own: the previous snapshot keeps serving until the new one is complete.
    const started = performance.now();
    const built = await (options.startIndex ?? startIndexThread)(
      ids.flatMap((id) => loaded.get(id)?.texts ?? []),
      {
        onLost: (error) => {
          if (thread !== built) return;
          loadedIds = ''; // the next poll builds the same snapshot again
          options.onError?.(error);
        },
      },
    );
    if (closed) {
      built.stop();
      return false;
    }
    const entriesOf = (list: string) => loaded.get(versions.find((v) => v.list === list)?.id ?? '');
    snapshot = {
      versions,
      index: built,
      entity: (list, entryId) => {
        const entries = entriesOf(list);
        return entries && storedEntity(entries, entryId);
      },
      entryIds: (list) => entriesOf(list)?.ids ?? [],
      loadedAt: new Date(),
      indexBuildMs: Math.round(performance.now() - started),
    };
    thread?.retire();
    thread = built;
    entriesByVersion = loaded;
    loadedIds = ids.join(',');
    for (const listener of listeners) listener(snapshot);
    return true;
  };
  const refresh = () => (inFlight ??= reload().finally(() => (inFlight = undefined)));

  await refresh();
  const timer = setInterval(() => refresh().catch((error) => options.onError?.(error)), options.refreshSeconds * 1000);
  timer.unref();

  return {
    current: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh,
    missing: () => {
      const loaded = new Set(snapshot?.versions.map((v) => v.list));
      return options.expectedLists.filter((list) => !loaded.has(list));
    },
    close: () => {
      closed = true;
      clearInterval(timer);
      thread?.stop();
    },
  };
}

/** A version's entries. When the version it follows is loaded, only what changed is read: the other entries are the same, and their texts are kept. */
async function entriesOfVersion(store: ListStore, version: ListVersion, loaded: ReadonlyMap<string, StoredEntries>): Promise<StoredEntries> {
  const previous = version.previousVersionId === null ? undefined : loaded.get(version.previousVersionId);
  if (previous) {
    const changes = await store.changesOf(version.id);
    const entries = followingEntries(
      previous,
      new Set([...changes.removed, ...changes.changed]),
      await store.entryTexts(version.id, [...changes.added, ...changes.changed]),
    );
    if (entries.ids.length === version.entityCount) return entries;
  }
  return storedEntries(await store.entryTexts(version.id));
}

/** A snapshot of a few entities with its index built on this thread: a monitoring run's or a re-evaluation's changes. */
export function snapshotInPlace(versions: ListVersion[], entities: readonly ListEntity[], index: ScreeningIndex, indexBuildMs: number): ListSnapshot {
  return {
    versions,
    index: indexInPlace(index),
    entity: (list, entryId) => entities.find((e) => e.list === list && e.entryId === entryId),
    entryIds: (list) => entities.filter((e) => e.list === list).map((e) => e.entryId),
    loadedAt: new Date(),
    indexBuildMs,
  };
}

/** For screening endpoints: never screen against nothing, which would answer a false "clear". */
export function requireLists(catalog: ListCatalog): ListSnapshot {
  const snapshot = catalog.current();
  if (!snapshot) {
    throw new AppError(
      'lists_unavailable',
      'No restricted-party list is loaded yet, so nothing can be screened. An operator loads them with `gatehouse lists update` ' +
        '(online) or `gatehouse lists import PATH` (offline).',
    );
  }
  return snapshot;
}

/** The readiness check: ready once a list is loaded; the detail names the lists still missing. */
export function listsReadiness(catalog: ListCatalog) {
  return async () => {
    const missing = catalog.missing();
    const detail = missing.length > 0 ? `missing: ${missing.join(', ')}` : undefined;
    if (!catalog.current()) return { ok: false, detail: `no list loaded${detail ? `; ${detail}` : ''}` };
    return detail ? { ok: true, detail } : { ok: true };
  };
}
