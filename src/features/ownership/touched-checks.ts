/**
 * The current stored determinations a list version touches, found from the version's changes,
 * never by reading every determination: those whose screening counted an entry the version
 * changed or removed (its designation may be undone), and those with a party whose name now
 * matches an entry the version added or changed at the organization's threshold. For the second,
 * the parties sharing a word with those entries (party-keys.ts) are candidates, and their names
 * are screened again against those entries alone, indexed apart with the loaded lists' word
 * rarity (so a name scores there as it does against every list): only a real match touches a
 * determination. Cost grows with the entries changed and the parties sharing their words.
 */

import type { TenantTransaction } from '../../db/tenant.ts';
import type { ListSnapshot } from '../../lists/catalog.ts';
import type { FreshnessReport } from '../../lists/freshness.ts';
import type { ListStore, ListVersion } from '../../lists/list-store.ts';
import type { RarityTable } from '../../screening/index/vocabulary.ts';
import { buildScreeningIndexInSlices } from '../../screening/screening-index-in-slices.ts';
import { screenNames } from './name-screening.ts';
import { checksUnderKeys } from './party-key-store.ts';
import { entryKey, lookupWordKeys, type ScreenedName } from './party-keys.ts';
import type { NameToScreen } from './request.ts';

/** What a version changed, as the keys of party-keys.ts, and its added and changed entries indexed alone. */
export type VersionChanges = {
  /** Entries it changed or removed. */
  entryKeys: string[];
  /** The words of the entries it added or changed. */
  wordKeys: string[];
  /** Those entries as a snapshot of their own; undefined when it only removed entries. */
  delta: ListSnapshot | undefined;
};

/** Read once per version and process: the same for every organization. */
export async function versionChanges(
  listStore: Pick<ListStore, 'changesOf' | 'entriesOf'>,
  version: ListVersion,
  rarity: RarityTable,
): Promise<VersionChanges> {
  const diff = await listStore.changesOf(version.id);
  const entities = await listStore.entriesOf(version.id, [...diff.added, ...diff.changed]);
  const wordKeys = new Set(entities.flatMap((entity) => lookupWordKeys(entity, rarity)));
  const entryKeys = [...diff.changed, ...diff.removed].map((id) => entryKey(version.list, id));
  if (entities.length === 0) return { entryKeys, wordKeys: [], delta: undefined };
  const started = performance.now();
  const index = await buildScreeningIndexInSlices(entities, { rarity });
  const delta = { versions: [version], entities, index, loadedAt: new Date(), indexBuildMs: Math.round(performance.now() - started) };
  return { entryKeys, wordKeys: [...wordKeys], delta };
}

/** The ids of the current determinations the changes touch, in id order. */
export async function touchedChecks(
  trx: TenantTransaction,
  changes: VersionChanges,
  at: { threshold: number; freshness: FreshnessReport; now: Date },
): Promise<string[]> {
  const touched = new Set((await checksUnderKeys(trx, changes.entryKeys)).map((row) => row.checkId));
  if (changes.delta) {
    const checksOfName = new Map<string, { name: ScreenedName; checks: Set<string> }>();
    for (const row of await checksUnderKeys(trx, changes.wordKeys)) {
      if (touched.has(row.checkId)) continue;
      for (const name of row.names) {
        const key = `${name.kind}\u0000${name.country ?? ''}\u0000${name.name}`;
        const entry = checksOfName.get(key) ?? { name, checks: new Set<string>() };
        entry.checks.add(row.checkId);
        checksOfName.set(key, entry);
      }
    }
    const candidates = [...checksOfName.values()];
    if (candidates.length === 0) return [...touched].sort();
    const names: NameToScreen[] = candidates.map(({ name }, index) => ({ index, ...name }));
    const screening = await screenNames(changes.delta, at.freshness, names, at.threshold, undefined, at.now);
    for (const [index, found] of screening.byEntity) if (found.designations.length > 0) for (const id of candidates[index]?.checks ?? []) touched.add(id);
  }
  return [...touched].sort();
}
