/**
 * The lists as a running service sees them: every entity of the active versions, loaded from the
 * database into memory once and kept current by polling the set of active version ids, so a
 * version imported by `gatehouse lists import` in another process is picked up without a restart.
 * Each snapshot carries the screening index built over it; screening reads `current()`.
 *
 * A reload never stalls the service: it reads only the versions it has not loaded yet, and of a
 * version that follows one it has loaded only the entries that changed (an hourly refresh changes
 * a handful), reuses the entities of the others, and builds the new index in slices between
 * which requests are answered from the previous snapshot.
 */
import { AppError } from '../http/errors.ts';
import type { ListCode, ListEntity } from '../screening/model.ts';
import type { ScreeningIndex } from '../screening/screening-index.ts';
import { buildScreeningIndexInSlices } from '../screening/screening-index-in-slices.ts';
import type { ListStore, ListVersion } from './list-store.ts';

/**
 * The active versions, their entities and the screening index over them, built together so that a
 * screening always names exactly the versions its index was built from.
 */
export type ListSnapshot = {
  versions: ListVersion[];
  entities: ListEntity[];
  index: ScreeningIndex;
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
  /** A failed poll is reported here and retried at the next tick; the last snapshot stays. */
  onError?: (error: unknown) => void;
};

/** Loads the active versions, then polls every `refreshSeconds`. */
export async function openListCatalog(store: ListStore, options: CatalogOptions): Promise<ListCatalog> {
  let snapshot: ListSnapshot | undefined;
  let loadedIds = '';
  /** The entities of each version loaded: a version's never change, so a reload reads only the new versions'. */
  let entitiesByVersion = new Map<string, ListEntity[]>();
  let inFlight: Promise<boolean> | undefined;
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
    const loaded = new Map<string, ListEntity[]>();
    for (const version of versions) loaded.set(version.id, entitiesByVersion.get(version.id) ?? (await entitiesOfVersion(store, version, entitiesByVersion)));
    const entities = ids.flatMap((id) => loaded.get(id) ?? []);
    // About a second of work for every list, done in slices: the previous snapshot keeps serving until the new one is complete.
    const started = performance.now();
    const index = await buildScreeningIndexInSlices(entities);
    snapshot = { versions, entities, index, loadedAt: new Date(), indexBuildMs: Math.round(performance.now() - started) };
    entitiesByVersion = loaded;
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
    close: () => clearInterval(timer),
  };
}

/**
 * A version's entities, sorted by entry id. When the version it follows is loaded, only what
 * changed is read: the other entries are the same, and their entities are kept.
 */
async function entitiesOfVersion(store: ListStore, version: ListVersion, loaded: ReadonlyMap<string, ListEntity[]>): Promise<ListEntity[]> {
  const previous = version.previousVersionId === null ? undefined : loaded.get(version.previousVersionId);
  let entities: ListEntity[] | undefined;
  if (previous) {
    const changes = await store.changesOf(version.id);
    const replaced = new Set([...changes.removed, ...changes.changed]);
    const kept = previous.filter((entity) => !replaced.has(entity.entryId));
    entities = kept.concat(await store.entriesOf(version.id, [...changes.added, ...changes.changed]));
  }
  if (entities?.length !== version.entityCount) entities = await store.entitiesOf([version.id]);
  // One order however it was read (and whatever the database's collation): a reload indexes exactly what a fresh load would.
  return entities.sort((a, b) => (a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : 0));
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
