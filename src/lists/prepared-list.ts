/**
 * A parsed list made ready to write: every entry hashed, the content hash and counts computed,
 * and the entries serialized into the batches the import inserts one statement each. This is the
 * CPU-heavy part of an import, and all of it pure, so that it runs in a worker thread
 * (read-lists-in-worker.ts) and comes back as little more than strings.
 */
import type { ListEntity } from '../screening/model.ts';
import { contentHash, type CountsByType, countByType, hashEntries } from './list-content.ts';
import type { ListToImport } from './list-import.ts';

export type PreparedList = Omit<ListToImport, 'entities'> & {
  entityCount: number;
  countsByType: CountsByType;
  contentSha256: string;
  /** Each entry's id and hash, in the source's order: what the difference to the active version compares. */
  hashes: { entryId: string; sha256: string }[];
  /** JSON arrays of {entry_id, entry_sha256, entity}, each about ENTRY_BATCH_CHARS: one INSERT each. */
  entryBatches: string[];
};

/**
 * Characters of JSON entries per INSERT. On the embedded database a statement holds the JavaScript thread:
 * 64 kB (about 90 SDN entries) inserts in about 3 ms, 2,000 entries in about 60 ms (measured on
 * the 2024-05 SDN); the import as a whole is barely slower in small batches.
 */
export const ENTRY_BATCH_CHARS = 64 * 1024;

/** Hashes and serializes a parsed list; throws ListImportError when two entries share an id. */
export function prepareList(parsed: ListToImport, batchChars = ENTRY_BATCH_CHARS): PreparedList {
  const { entities, ...described } = parsed;
  const entries = hashEntries(parsed.list, entities);
  return {
    ...described,
    entityCount: entries.length,
    countsByType: countByType(entities),
    contentSha256: contentHash(entries),
    hashes: entries.map(({ entryId, sha256 }) => ({ entryId, sha256 })),
    entryBatches: batches(entries, batchChars),
  };
}

function batches(entries: { entryId: string; sha256: string; entity: ListEntity }[], batchChars: number): string[] {
  const out: string[] = [];
  let rows: string[] = [];
  let chars = 0;
  for (const { entryId, sha256, entity } of entries) {
    const row = JSON.stringify({ entry_id: entryId, entry_sha256: sha256, entity });
    rows.push(row);
    chars += row.length;
    if (chars >= batchChars) {
      out.push(`[${rows.join(',')}]`);
      rows = [];
      chars = 0;
    }
  }
  if (rows.length > 0) out.push(`[${rows.join(',')}]`);
  return out;
}
