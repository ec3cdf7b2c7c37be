/**
 * The hash chain, as pure functions: each event's hash covers the previous hash and the event's
 * canonical JSON, so changing, removing or reordering any event breaks every link after it.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.ts';

/** The hash that comes before an organization's first event. */
export const GENESIS_HASH = Buffer.alloc(32);

/** Exactly the fields the hash covers, with the time as an ISO string (millisecond precision). */
export type ChainedFields = {
  seq: number;
  occurred_at: string;
  actor: { type: string; id: string; role: string | null };
  action: string;
  target: { type: string | null; id: string | null };
  request_id: string | null;
  source_ip: string | null;
  outcome: 'success' | 'failure';
  details: Record<string, unknown>;
};

export function chainHash(previous: Buffer, fields: ChainedFields): Buffer {
  return createHash('sha256').update(previous).update(canonicalJson(fields)).digest();
}

/**
 * The canonical JSON of `fields` in two parts around the sequence number, so that
 * `before + String(seq) + after === canonicalJson({ ...fields, seq })`: whoever knows the number
 * (the database, holding the locked head) can complete the hashed text without rebuilding it.
 * Keys are sorted as canonicalJson sorts them, so `seq` falls between the keys below and above it.
 */
export function canonicalAroundSeq(fields: Omit<ChainedFields, 'seq'>): { before: string; after: string } {
  const below = Object.fromEntries(Object.entries(fields).filter(([key]) => key < 'seq'));
  const above = Object.fromEntries(Object.entries(fields).filter(([key]) => key > 'seq'));
  const head = canonicalJson(below).slice(0, -1);
  const tail = canonicalJson(above).slice(1);
  return { before: `${head}${head === '{' ? '' : ','}"seq":`, after: tail === '}' ? '}' : `,${tail}` };
}

export type StoredLink = { seq: number; prev_hash: Buffer; hash: Buffer; fields: ChainedFields };
export type ChainBreak = { seq: number; reason: string };

/** Walks the links in order and returns the first one that does not hold, if any. */
export function findBreak(links: Iterable<StoredLink>, start: { seq: number; hash: Buffer } = { seq: 0, hash: GENESIS_HASH }): ChainBreak | undefined {
  let expected = start;
  for (const link of links) {
    if (link.seq !== expected.seq + 1) return { seq: link.seq, reason: `expected event ${expected.seq + 1}, found ${link.seq}` };
    if (!link.prev_hash.equals(expected.hash)) return { seq: link.seq, reason: 'does not follow the previous event' };
    if (!chainHash(link.prev_hash, link.fields).equals(link.hash)) return { seq: link.seq, reason: 'its content does not match its hash' };
    expected = { seq: link.seq, hash: link.hash };
  }
  return undefined;
}
