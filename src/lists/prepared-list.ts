/**
 * A parsed list made ready to write: every entry hashed, the content hash and counts computed,
 * and the entries serialized into the batches the import inserts one statement each. This is the
 * CPU-heavy part of an import, and all of it pure, so that it runs in a worker thread
 * (read-lists-in-worker.ts). What comes back is shaped to cross threads cheaply: the entries as
 * one buffer of bytes (moved, not copied) and the ids and hashes as two strings. Received as
 * objects, the SDN's 15,000 entries cost the service's thread some 30 ms to deserialize (measured).
 */
import type { ListCode, ListEntity } from '../screening/model.ts';
import { type CountsByType, contentHash, countByType, hashEntries } from './list-content.ts';

/** What a parser hands over for one list (src/screening/lists/read-list-sources.ts's ParsedList). */
export type ListToImport = {
  list: ListCode;
  format: string;
  files: string[];
  sourceSha256: string;
  /** YYYY-MM-DD */
  publishedAt?: string;
  entities: ListEntity[];
  warnings: string[];
};

export type PreparedList = Omit<ListToImport, 'entities'> & {
  entityCount: number;
  countsByType: CountsByType;
  contentSha256: string;
  /** Each entry's id, in the source's order, as a JSON array. */
  entryIds: string;
  /** Each entry's SHA-256 in the same order, 64 hex digits each, end to end. */
  entryHashes: string;
  /** JSON arrays of {entry_id, entry_sha256, entity} end to end, UTF-8: batch i ends at batchEnds[i]. */
  entryBytes: Uint8Array;
  batchEnds: number[];
};

/**
 * Characters of JSON entries per INSERT. On the embedded database a statement holds the
 * JavaScript thread: 32 k (about 45 SDN entries) insert in about 3 ms, 2,000 entries in about
 * 60 ms (measured on the 2024-05 SDN); the import as a whole is barely slower in small batches.
 */
export const ENTRY_BATCH_CHARS = 32 * 1024;
const HASH_LENGTH = 64;

/** Hashes and serializes a parsed list; throws ListImportError when two entries share an id. */
export function prepareList(parsed: ListToImport, batchChars = ENTRY_BATCH_CHARS): PreparedList {
  const { entities, ...described } = parsed;
  const entries = hashEntries(parsed.list, entities);
  const batches: string[] = [];
  let rows: string[] = [];
  let chars = 0;
  for (const { entryId, sha256, entity } of entries) {
    const row = JSON.stringify({ entry_id: entryId, entry_sha256: sha256, entity });
    rows.push(row);
    chars += row.length;
    if (chars >= batchChars) {
      batches.push(`[${rows.join(',')}]`);
      rows = [];
      chars = 0;
    }
  }
  if (rows.length > 0) batches.push(`[${rows.join(',')}]`);
  const encoded = batches.map((batch) => Buffer.from(batch, 'utf8'));
  let end = 0;
  return {
    ...described,
    entityCount: entries.length,
    countsByType: countByType(entities),
    contentSha256: contentHash(entries),
    entryIds: JSON.stringify(entries.map((e) => e.entryId)),
    entryHashes: entries.map((e) => e.sha256).join(''),
    // A buffer of its own (not a slice of Node's pool), so that it can be moved to another thread.
    entryBytes: new Uint8Array(Buffer.concat(encoded)),
    batchEnds: encoded.map((bytes) => (end += bytes.length)),
  };
}

/** The entries' ids and hashes, one at a time, for the difference to the active version. */
export function* entryHashesOf(prepared: PreparedList): Generator<{ entryId: string; sha256: string }> {
  const ids = JSON.parse(prepared.entryIds) as string[];
  for (const [i, entryId] of ids.entries()) yield { entryId, sha256: prepared.entryHashes.slice(i * HASH_LENGTH, (i + 1) * HASH_LENGTH) };
}

/** The batches of entries, one INSERT each, decoded one at a time. */
export function* entryBatches(prepared: PreparedList): Generator<string> {
  const decoder = new TextDecoder();
  let start = 0;
  for (const end of prepared.batchEnds) {
    yield decoder.decode(prepared.entryBytes.subarray(start, end));
    start = end;
  }
}
