/**
 * The current stored determinations a list version touches, found from the version's changes,
 * never by reading every determination: those whose screening counted an entry the version
 * changed or removed (its designation may be undone), and those with a party whose name now
 * matches an entry the version added or changed at the organization's threshold. For the second,
 * the parties sharing a word with those entries (party-keys.ts) are candidates, and their names
 * are screened again against those entries alone, indexed apart with the loaded lists' word
 * rarity (so a name scores there as it does against every list): only a real match touches a
 * determination. Cost grows with the entries changed and the parties sharing their words.
 *
 * The candidates are read and screened a slice at a time, never held all at once: a word common
 * in a book of suppliers and rare on the lists (Marine, Capital) is carried by a tenth of the
 * parties stored, and 10,000 stored determinations gave 82,000 candidate names for a 1 % change
 * of the SDN. Held all together with their screenings, so much survived each young-generation
 * collection that V8 began allocating the screening's short-lived objects (this one's and the
 * re-evaluations' after it) where only a full collection frees them: the run's peak memory rose
 * about 700 MB above the ready service's, against about 150 MB a slice at a time (BENCHMARKS.md).
 */

import type { TenantTransaction } from '../../db/tenant.ts';
import { type ListSnapshot, snapshotInPlace } from '../../lists/catalog.ts';
import type { FreshnessReport } from '../../lists/freshness.ts';
import type { ListStore, ListVersion } from '../../lists/list-store.ts';
import type { RarityTable } from '../../screening/index/vocabulary.ts';
import { buildScreeningIndexInSlices } from '../../screening/screening-index-in-slices.ts';
import { mapInSlices } from '../../screening/steps.ts';
import { screenNames } from './name-screening.ts';
import { checksUnderKeys, type KeyedCheck } from './party-key-store.ts';
import { entryKey, lookupWordKeys, type ScreenedName, screenedNameKey } from './party-keys.ts';
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
  // In slices: the words of a year's new designations took the service's thread 86 ms at once (bench:lists-refresh).
  const wordKeys = new Set((await mapInSlices(entities, (entity) => lookupWordKeys(entity, rarity))).flat());
  const entryKeys = [...diff.changed, ...diff.removed].map((id) => entryKey(version.list, id));
  if (entities.length === 0) return { entryKeys, wordKeys: [], delta: undefined };
  const started = performance.now();
  const index = await buildScreeningIndexInSlices(entities, { rarity });
  const delta = snapshotInPlace([version], entities, index, Math.round(performance.now() - started));
  return { entryKeys, wordKeys: [...wordKeys], delta };
}

/** Candidate names screened together. */
const NAMES_PER_SLICE = 1_000;
/** Names whose outcome is remembered for later slices (a name recurs across graphs), forgotten all at once past this many. */
const REMEMBERED_OUTCOMES = 100_000;

type Basis = { threshold: number; freshness: FreshnessReport; now: Date };

/** The ids of the current determinations the changes touch, in id order. */
export async function touchedChecks(trx: TenantTransaction, changes: VersionChanges, at: Basis): Promise<string[]> {
  const touched = new Set<string>();
  for await (const page of checksUnderKeys(trx, changes.entryKeys)) for (const row of page) touched.add(row.checkId);
  if (changes.delta) {
    const candidates = candidateNames(changes.delta, at, touched);
    for await (const page of checksUnderKeys(trx, changes.wordKeys)) await candidates.add(page);
    await candidates.screenWaiting();
  }
  return [...touched].sort();
}

/** Candidates gathered page by page and screened a slice at a time; a determination with a name that matches joins `touched`. */
function candidateNames(delta: ListSnapshot, at: Basis, touched: Set<string>) {
  /** Per name screened before: whether it matches. */
  const outcomes = new Map<string, boolean>();
  let fresh = new Map<string, ScreenedName>();
  /** Determinations waiting on the screening of their fresh names. */
  let waiting: { checkId: string; keys: string[] }[] = [];

  const screenWaiting = async () => {
    const keys = [...fresh.keys()];
    const names: NameToScreen[] = [...fresh.values()].map((name, index) => ({ index, ...name }));
    const matching = new Set<string>();
    if (names.length > 0) {
      const screening = await screenNames(delta, at.freshness, names, at.threshold, undefined, at.now);
      for (const [index, found] of screening.byEntity) if (found.designations.length > 0) matching.add(keys[index] as string);
    }
    for (const { checkId, keys: its } of waiting) if (its.some((key) => matching.has(key))) touched.add(checkId);
    if (outcomes.size + keys.length > REMEMBERED_OUTCOMES) outcomes.clear();
    for (const key of keys) outcomes.set(key, matching.has(key));
    fresh = new Map();
    waiting = [];
  };

  const add = async (page: readonly KeyedCheck[]) => {
    for (const { checkId, names } of page) {
      if (touched.has(checkId)) continue;
      const keys = names.map(screenedNameKey);
      if (keys.some((key) => outcomes.get(key) === true)) {
        touched.add(checkId);
        continue;
      }
      const unknown = keys.filter((key, i) => {
        if (outcomes.has(key)) return false;
        fresh.set(key, names[i] as ScreenedName);
        return true;
      });
      if (unknown.length > 0) waiting.push({ checkId, keys: unknown });
    }
    if (fresh.size >= NAMES_PER_SLICE) await screenWaiting();
  };

  return { add, screenWaiting };
}
