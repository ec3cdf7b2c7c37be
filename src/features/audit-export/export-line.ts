/**
 * One exported audit event: its stored fields, its hashes in hex, and the cursor that resumes the
 * export just after it. Both formats write these lines (export-stream.ts as NDJSON, csv.ts as
 * CSV), so the line is defined below both.
 */
import type { StoredLink } from '../../audit/audit-chain.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';

/** Each line's cursor resumes the export just after that line. Opaque to callers. */
const lineCursor = (seq: number) => encodeCursor({ s: seq });

const isSeq = (value: unknown): value is { s: number } =>
  typeof value === 'object' && value !== null && Number.isSafeInteger((value as { s: unknown }).s) && (value as { s: number }).s >= 0;

export const decodeLineCursor = (cursor: string): number => decodeCursor(cursor, 'this export', isSeq).s;

export function exportLine(link: StoredLink) {
  return { ...link.fields, prev_hash: link.prev_hash.toString('hex'), hash: link.hash.toString('hex'), cursor: lineCursor(link.seq) };
}

export type ExportLine = ReturnType<typeof exportLine>;
