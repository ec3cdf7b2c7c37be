/**
 * The changed entries of list versions, indexed, shared by the runs of every organization for the
 * same version: one index per version, not one per organization. The index lives on the serving
 * thread, so what is kept here is marked by every full garbage collection of that thread, each a
 * pause for the requests in flight. They were kept for good (up to 32 versions): in a heap snapshot
 * of a service after one refresh of the SDN (3,206 entries added or changed, bench:lists-refresh),
 * that one delta was 176,000 of the thread's 1.1 million objects. A run holds the delta it works
 * with for as long as it runs; the cache keeps one only for the runs that ask soon after (the
 * other organizations', in the same poll or the next), and drops it once it has gone unasked for
 * `keepMs`.
 *
 * A build that fails is not kept: the next run for the version builds it again, where a kept
 * rejection failed every run for that version until the process restarted.
 */
import type { ListSnapshot } from '../../lists/catalog.ts';
import type { ListVersion } from '../../lists/list-store.ts';

/** Longer than a poll's pass over the organizations with runs for one version, and than the interval between two polls. */
export const DELTA_KEPT_MS = 120_000;

export type DeltaCache = {
  /** The version's delta: the one kept, or a new build. */
  of(version: ListVersion): Promise<ListSnapshot>;
  /** Drops the deltas unasked for longer than `keepMs`. */
  sweep(): void;
  /** The versions whose deltas are kept. */
  kept(): string[];
};

export function createDeltaCache(
  build: (version: ListVersion) => Promise<ListSnapshot>,
  { keepMs = DELTA_KEPT_MS, now = () => performance.now() }: { keepMs?: number; now?: () => number } = {},
): DeltaCache {
  const kept = new Map<string, { delta: Promise<ListSnapshot>; askedAt: number }>();
  const sweep = () => {
    const at = now();
    for (const [versionId, entry] of kept) if (at - entry.askedAt > keepMs) kept.delete(versionId);
  };
  return {
    of(version) {
      sweep();
      let entry = kept.get(version.id);
      if (!entry) {
        const delta = build(version);
        entry = { delta, askedAt: now() };
        kept.set(version.id, entry);
        delta.catch(() => {
          if (kept.get(version.id)?.delta === delta) kept.delete(version.id);
        });
      }
      entry.askedAt = now();
      return entry.delta;
    },
    sweep,
    kept: () => [...kept.keys()],
  };
}
