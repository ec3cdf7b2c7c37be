/**
 * The difference between two versions of a list computed from the two entity sets, without the
 * code under test (which hashes entries and compares hashes), to check what an import stored.
 */
import { canonicalJson } from '../../src/canonical-json.ts';
import type { ListEntity } from '../../src/screening/model.ts';

export function expectedDiff(before: ListEntity[], after: ListEntity[]) {
  const old = new Map(before.map((e) => [e.entryId, canonicalJson(e)]));
  const now = new Map(after.map((e) => [e.entryId, canonicalJson(e)]));
  return {
    added: [...now.keys()].filter((id) => !old.has(id)).sort(),
    removed: [...old.keys()].filter((id) => !now.has(id)).sort(),
    changed: [...now.keys()].filter((id) => old.has(id) && old.get(id) !== now.get(id)).sort(),
  };
}
