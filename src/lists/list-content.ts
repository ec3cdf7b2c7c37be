/**
 * What an import compares: a hash per entry (its canonical JSON), a hash of the whole content,
 * counts by type, and the difference between two versions by the source's own entry id. Pure
 * functions, so the rules are tested without a database.
 */
import { canonicalJson } from '../canonical-json.ts';
import type { EntityType, ListCode, ListEntity } from '../screening/model.ts';
import type { Steps } from '../screening/steps.ts';
import { sha256Hex } from '../sha256.ts';

export type HashedEntry = { entryId: string; sha256: string; entity: ListEntity };
export type ListDiff = { added: string[]; removed: string[]; changed: string[] };
export type CountsByType = Record<EntityType, number>;

/** A list that cannot become a version (duplicate ids, a suspicious shrink): nothing is written. */
export class ListImportError extends Error {
  override name = 'ListImportError';
}

/** Hashes each entry; two entries with one id would make the diff meaningless, so they are refused. */
export function hashEntries(list: ListCode, entities: ListEntity[]): HashedEntry[] {
  const seen = new Set<string>();
  return entities.map((entity) => {
    if (seen.has(entity.entryId)) throw new ListImportError(`${list}: entry id "${entity.entryId}" appears more than once`);
    seen.add(entity.entryId);
    return { entryId: entity.entryId, sha256: sha256Hex(canonicalJson(entity)), entity };
  });
}

/** The hash of the content, independent of the order the source listed its entries in. */
export function contentHash(entries: { entryId: string; sha256: string }[]): string {
  const lines = entries.map((e) => `${e.entryId}\t${e.sha256}\n`).sort();
  return sha256Hex(lines.join(''));
}

export function countByType(entities: ListEntity[]): CountsByType {
  const counts: CountsByType = { person: 0, organization: 0, vessel: 0, aircraft: 0 };
  for (const entity of entities) counts[entity.type] += 1;
  return counts;
}

/**
 * Entry ids added, removed and changed going from `before` (id → hash) to `after`, an entry a step
 * (steps.ts): a new SDN's 15,000 entries took the service's thread 10 ms at once.
 */
export function* diffSteps(before: ReadonlyMap<string, string>, after: Iterable<{ entryId: string; sha256: string }>): Steps<ListDiff> {
  const diff: ListDiff = { added: [], removed: [], changed: [] };
  const present = new Set<string>();
  for (const { entryId, sha256: hash } of after) {
    present.add(entryId);
    const previous = before.get(entryId);
    if (previous === undefined) diff.added.push(entryId);
    else if (previous !== hash) diff.changed.push(entryId);
    yield;
  }
  for (const entryId of before.keys()) {
    if (!present.has(entryId)) diff.removed.push(entryId);
    yield;
  }
  return diff;
}
