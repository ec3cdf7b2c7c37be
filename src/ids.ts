/**
 * Identifiers: a type prefix a human can read (`org_…`, `req_…`) and 26 characters of lower-case
 * Crockford base32: 48 bits of milliseconds then 80 random bits, so ids sort by creation time
 * (useful for keyset pagination) and cannot be guessed.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export function newId(prefix: string, now = Date.now()): string {
  let time = '';
  for (let t = now, i = 0; i < 10; i++, t = Math.floor(t / 32)) time = ALPHABET[t % 32] + time;
  const random = randomBytes(10);
  let bits = 0n;
  for (const byte of random) bits = (bits << 8n) | BigInt(byte);
  let tail = '';
  for (let i = 0; i < 16; i++, bits >>= 5n) tail = ALPHABET[Number(bits & 31n)] + tail;
  return `${prefix}_${time}${tail}`;
}
