/**
 * A parsed list made ready to write: every entry hashed, the content hash and counts computed,
 * and each entry serialized as the row the import inserts. This is the CPU-heavy part of an
 * import, and all of it pure, so that it runs in a worker thread (read-lists-in-worker.ts). What
 * comes back is shaped to cross threads cheaply: the rows as one buffer of bytes and where each
 * ends (both moved, not copied), and the ids and hashes as two strings. Received as objects, the
 * SDN's 15,000 entries cost the service's thread some 30 ms to deserialize (measured). The import
 * puts the rows it sends into batches (`entryBatches`), byte for byte: only the entries the
 * active version lacks or holds otherwise, as the others are copied inside the database.
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
  /** Each entry as the JSON of {entry_id, entry_sha256, entity}, UTF-8, end to end in the same order: row i ends at rowEnds[i]. */
  entryBytes: Uint8Array;
  rowEnds: Uint32Array;
};

/**
 * Characters of JSON entries per INSERT. On the embedded database a statement holds the
 * JavaScript thread: 32 k (about 45 SDN entries) insert in about 3 ms, 2,000 entries in about
 * 60 ms (measured on the 2024-05 SDN); the import as a whole is barely slower in small batches.
 */
export const ENTRY_BATCH_CHARS = 32 * 1024;
const HASH_LENGTH = 64;
const [OPEN_BRACKET, COMMA, CLOSE_BRACKET] = [0x5b, 0x2c, 0x5d];

/** Hashes and serializes a parsed list; throws ListImportError when two entries share an id. */
export function prepareList(parsed: ListToImport): PreparedList {
  const { entities, ...described } = parsed;
  const entries = hashEntries(parsed.list, entities);
  const encoded = entries.map(({ entryId, sha256, entity }) => Buffer.from(JSON.stringify({ entry_id: entryId, entry_sha256: sha256, entity }), 'utf8'));
  const rowEnds = new Uint32Array(encoded.length);
  let end = 0;
  encoded.forEach((row, i) => {
    end += row.length;
    rowEnds[i] = end;
  });
  return {
    ...described,
    entityCount: entries.length,
    countsByType: countByType(entities),
    contentSha256: contentHash(entries),
    entryIds: JSON.stringify(entries.map((e) => e.entryId)),
    entryHashes: entries.map((e) => e.sha256).join(''),
    // A buffer of its own (not a slice of Node's pool), so that it can be moved to another thread.
    entryBytes: new Uint8Array(Buffer.concat(encoded)),
    rowEnds,
  };
}

/** The entries' ids and hashes, one at a time, for the difference to the active version. */
export function* entryHashesOf(prepared: PreparedList): Generator<{ entryId: string; sha256: string }> {
  const ids = JSON.parse(prepared.entryIds) as string[];
  for (const [i, entryId] of ids.entries()) yield { entryId, sha256: prepared.entryHashes.slice(i * HASH_LENGTH, (i + 1) * HASH_LENGTH) };
}

/**
 * The rows of the entries `included` (by their place in the list), as JSON arrays of about
 * `batchChars` characters, one INSERT each, assembled from the rows' bytes and decoded one batch
 * at a time.
 */
export function* entryBatches(prepared: PreparedList, included: (i: number) => boolean = () => true, batchChars = ENTRY_BATCH_CHARS): Generator<string> {
  const decoder = new TextDecoder();
  const { entryBytes, rowEnds } = prepared;
  let rows: [number, number][] = [];
  let size = 0;
  const batch = () => {
    const bytes = new Uint8Array(size + rows.length + 1);
    let at = 0;
    rows.forEach(([start, end], n) => {
      bytes[at++] = n === 0 ? OPEN_BRACKET : COMMA;
      bytes.set(entryBytes.subarray(start, end), at);
      at += end - start;
    });
    bytes[at] = CLOSE_BRACKET;
    rows = [];
    size = 0;
    return decoder.decode(bytes);
  };
  for (let i = 0; i < rowEnds.length; i++) {
    if (!included(i)) continue;
    const start = i === 0 ? 0 : (rowEnds[i - 1] as number);
    rows.push([start, rowEnds[i] as number]);
    size += (rowEnds[i] as number) - start;
    if (size >= batchChars) yield batch();
  }
  if (rows.length > 0) yield batch();
}
