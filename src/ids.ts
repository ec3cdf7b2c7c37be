/**
 * Identifiers: a type prefix a human can read (`org_…`, `req_…`) and 26 characters of lower-case
 * Crockford base32: 48 bits of milliseconds then 80 random bits, so ids sort by creation time
 * (useful for keyset pagination) and cannot be guessed.
 */
import { randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

// Random bytes drawn a few kilobytes at a time: a bulk sync makes an id per screening and per
// match, and one small call into the system's generator each cost more than the rest of newId.
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomBits(): Buffer {
  if (used + 10 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += 10;
  return pool.subarray(used - 10, used);
}

export function newId(prefix: string, now = Date.now()): string {
  let time = '';
  for (let t = now, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = ALPHABET[t % 32] + time;
  // 80 random bits as 16 characters of 5 bits each, most significant first.
  const random = randomBits();
  let tail = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of random) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      tail += ALPHABET[(buffer >> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  return `${prefix}_${time}${tail}`;
}
