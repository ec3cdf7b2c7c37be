/**
 * Identifiers: a type prefix a human can read (`org_…`, `req_…`) and 26 characters of lower-case
 * Crockford base32: 48 bits of milliseconds then 80 random bits, so ids sort by creation time
 * (useful for keyset pagination) and cannot be guessed.
 *
 * Within one millisecond the random part alone would order ids by chance, and a transaction that
 * records `screening.completed` then `case.opened` could list them the other way round in the
 * events feed. So, per prefix, an id made in the same millisecond as the last one takes the last
 * one's random part plus a random step of up to 2^32: the ids of one process sort in the order they
 * were made, and the step keeps the next id from being guessed from this one.
 */
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** The random part is kept as two 40-bit halves, each exact in a double and eight characters long. */
const HALF = 2 ** 40;

// Random bytes drawn a few kilobytes at a time: a bulk sync makes an id per screening and per
// match, and one small call into the system's generator each cost more than the rest of newId.
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomBytes(n: number): Buffer {
  if (used + n > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += n;
  return pool.subarray(used - n, used);
}

const random40 = (): number => randomBytes(5).readUIntBE(0, 5);

interface Last {
  time: number;
  /** `time` encoded: ids come in bursts within a millisecond, and this is most of the encoding. */
  timeText: string;
  high: number;
  low: number;
}
const lastByPrefix = new Map<string, Last>();

function encode(value: number, length: number): string {
  let text = '';
  for (let v = value, i = 0; i < length; i++, v = Math.floor(v / 32)) text = ALPHABET[v % 32] + text;
  return text;
}

export function newId(prefix: string, now = Date.now()): string {
  let last = lastByPrefix.get(prefix);
  if (last === undefined) {
    last = { time: -1, timeText: '', high: 0, low: 0 };
    lastByPrefix.set(prefix, last);
  }
  if (now === last.time) {
    last.low += 1 + randomBytes(4).readUInt32BE(0);
    if (last.low >= HALF) {
      last.low -= HALF;
      last.high += 1;
    }
    // Should the 80 bits overflow within a millisecond (the upper half drawn near its top, then
    // hundreds of ids), the id borrows the next millisecond rather than sort before its elders.
    if (last.high >= HALF) restart(last, now + 1);
  } else {
    restart(last, now);
  }
  return `${prefix}_${last.timeText}${encode(last.high, 8)}${encode(last.low, 8)}`;
}

function restart(last: Last, time: number): void {
  last.time = time;
  last.timeText = encode(time, 10);
  last.high = random40();
  last.low = random40();
}
