/**
 * The lists as a running service sees them: every entity of the active versions, loaded from the
 * database into memory once and kept current by polling the set of active version ids, so a
 * version imported by `gatehouse lists import` in another process is picked up without a restart.
 * Each snapshot carries the screening index built over it; screening reads `current()`.
 */
import { AppError } from '../http/errors.ts';
import type { ListCode, ListEntity } from '../screening/model.ts';
import { buildScreeningIndex, type ScreeningIndex } from '../screening/screening-index.ts';
import type { ListStore, ListVersion } from './list-store.ts';

/**
 * The active versions, their entities and the screening index over them, built together so that a
 * screening always names exactly the versions its index was built from.
 */
export type ListSnapshot = { versions: ListVersion[]; entities: ListEntity[]; index: ScreeningIndex; loadedAt: Date; indexBuildMs: number };
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
  let inFlight: Promise<boolean> | undefined;
  const listeners = new Set<SnapshotListener>();

  const reload = async (): Promise<boolean> => {
    const ids = await store.activeVersionIds();
    if (ids.join(',') === loadedIds) return false;
    const [versions, entities] = await Promise.all([store.activeVersions(), store.entitiesOf(ids)]);
    // Versions and entities are read separately: if an import landed in between, load again next time.
    const consistent = versions.map((v) => v.id).sort().join(',') === ids.join(',');
    if (!consistent) return false;
    // The build is synchronous (a few seconds for every list): it happens once per new set of versions,
    // and the previous snapshot keeps serving until the new one is complete.
    const started = performance.now();
    const index = buildScreeningIndex(entities);
    snapshot = { versions, entities, index, loadedAt: new Date(), indexBuildMs: Math.round(performance.now() - started) };
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
