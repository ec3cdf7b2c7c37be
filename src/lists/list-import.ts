/**
 * One parsed list becomes one list version: compared with the active version of the same list
 * (identical content creates nothing), refused when it shrank suspiciously, otherwise staged in
 * small statements with a turn of the event loop between them (a running service keeps answering
 * meanwhile), and made active in one short transaction (list-staging.ts). A failure anywhere
 * leaves the previous version active and removes what was staged.
 *
 * Another import may activate a version of the same list while this one stages: then the
 * difference is computed again against that version (or the import is `unchanged` if it holds the
 * same content) before activating, so `changes` always describe the step from the version before.
 */
import { giveWay } from '../background-priority.ts';
import { newId } from '../ids.ts';
import type { ListCode } from '../screening/model.ts';
import { DEFAULT_SLICE_MS, inSlices } from '../screening/steps.ts';
import { diffSteps, type ListDiff, ListImportError } from './list-content.ts';
import type { ListStaging } from './list-staging.ts';
import type { ListStore, ListVersion } from './list-store.ts';
import { entryBatches, entryHashesOf, type ListToImport, type PreparedList, prepareList } from './prepared-list.ts';

// What importList takes, declared with the preparing it goes through first.
export type { ListToImport } from './prepared-list.ts';

export type ImportOptions = {
  /** Accept a version with fewer than `shrinkLimitPercent` % of the active version's entities. */
  allowShrink?: boolean;
  /** Default 50. */
  shrinkLimitPercent?: number;
};

export type ImportOutcome =
  | { list: ListCode; status: 'imported'; version: ListVersion }
  | { list: ListCode; status: 'unchanged'; version: ListVersion }
  | { list: ListCode; status: 'refused'; reason: string };

/** Activations attempted before giving up on a list that other imports keep changing. */
const MAX_ACTIVATIONS = 3;
/**
 * Unchanged entries copied per statement. A statement on the embedded database holds the
 * service's thread; a copied row costs the database far less than one it parses.
 */
const COPY_PAGE = 200;

/** Hashes the entities here, on the calling thread; import-files.ts prepares them in a worker instead. */
export async function importList(store: ListStore, parsed: ListToImport, options: ImportOptions = {}): Promise<ImportOutcome> {
  let prepared: PreparedList;
  try {
    prepared = prepareList(parsed);
  } catch (error) {
    if (error instanceof ListImportError) return { list: parsed.list, status: 'refused', reason: error.message };
    throw error;
  }
  return importPrepared(store, prepared, options);
}

export async function importPrepared(store: ListStore, prepared: PreparedList, options: ImportOptions = {}): Promise<ImportOutcome> {
  const { list } = prepared;
  const { staging } = store;
  await staging.removeAbandoned();
  let active = (await store.activeVersions()).find((v) => v.list === list);
  if (active?.contentSha256 === prepared.contentSha256) return { list, status: 'unchanged', version: active };
  const refusal = shrinkRefusal(prepared, active, options);
  if (refusal) return { list, status: 'refused', reason: refusal };

  const versionId = newId('lv');
  try {
    await staging.begin({
      id: versionId,
      list,
      format: prepared.format,
      sourceSha256: prepared.sourceSha256,
      contentSha256: prepared.contentSha256,
      publishedOn: prepared.publishedAt ?? null,
      entityCount: prepared.entityCount,
      countsByType: prepared.countsByType,
      previousVersionId: active?.id ?? null,
      files: prepared.files,
      warnings: prepared.warnings,
    });
    let diff = await differenceTo(staging, active, prepared);
    await writeEntries(staging, versionId, prepared, active, diff);
    for (let attempt = 1; attempt <= MAX_ACTIVATIONS; attempt++) {
      await staging.setChanges(versionId, active?.id ?? null, diff);
      const activation = await staging.activate(versionId);
      if (activation.status === 'activated') return { list, status: 'imported', version: activation.version };
      // Another import activated a version of this list meanwhile: compare with that one instead.
      active = activation.active;
      if (active?.contentSha256 === prepared.contentSha256) {
        await staging.discard(versionId);
        return { list, status: 'unchanged', version: active };
      }
      const moved = shrinkRefusal(prepared, active, options);
      if (moved) {
        await staging.discard(versionId);
        return { list, status: 'refused', reason: moved };
      }
      diff = await differenceTo(staging, active, prepared);
    }
    await staging.discard(versionId);
    return {
      list,
      status: 'refused',
      reason: `${list}: other imports activated new versions of this list ${MAX_ACTIVATIONS} times while this one was written; it was not imported. Try again.`,
    };
  } catch (error) {
    await staging.discard(versionId).catch(() => undefined); // the next import removes it otherwise
    throw error;
  }
}

/** What the prepared list changes against `active` (everything is added where there is none). */
async function differenceTo(staging: ListStaging, active: ListVersion | undefined, prepared: PreparedList): Promise<ListDiff> {
  const before = active ? await staging.entryHashes(active.id) : new Map<string, string>();
  return inSlices(diffSteps(before, entryHashesOf(prepared)), DEFAULT_SLICE_MS);
}

/**
 * The version's entries: those `active` holds with the same content copied inside the database,
 * the others sent in batches. An hourly refresh changes a handful of the SDN's 15,000 entries,
 * and a year of changes 3,559 of them; each entry sent is JSON the database parses, and on the
 * embedded database that work is the service's thread's. Whichever version is active when this
 * one is activated, the entries are the list's: a copied entry had the same hash.
 */
async function writeEntries(staging: ListStaging, versionId: string, prepared: PreparedList, active: ListVersion | undefined, diff: ListDiff) {
  const sent = new Set([...diff.added, ...diff.changed]);
  const ids = JSON.parse(prepared.entryIds) as string[];
  if (active) {
    const unchanged = ids.filter((id) => !sent.has(id));
    for (let start = 0; start < unchanged.length; start += COPY_PAGE) {
      await staging.copyEntries(versionId, active.id, unchanged.slice(start, start + COPY_PAGE));
      await giveWay();
    }
  }
  for (const batch of entryBatches(prepared, (i) => sent.has(ids[i] as string))) {
    await staging.addEntries(versionId, batch);
    await giveWay();
  }
}

/** A list that suddenly lost most of its entries is far likelier a truncated download than a mass delisting. */
function shrinkRefusal(prepared: PreparedList, active: ListVersion | undefined, options: ImportOptions): string | undefined {
  const percent = options.shrinkLimitPercent ?? 50;
  const count = prepared.entityCount;
  if (!active || options.allowShrink || count * 100 >= active.entityCount * percent) return undefined;
  return (
    `${prepared.list}: the new file has ${count} entities, the active version ${active.id} has ${active.entityCount} ` +
    `(below ${percent}%); it looks truncated and was not imported. Pass --allow-shrink if the list really shrank.`
  );
}
