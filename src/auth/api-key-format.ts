/**
 * The API key format: `gk_live_` or `gk_test_`, then 43 base62 characters carrying 256 random
 * bits, then 6 base62 characters of CRC32 over everything before them (GitHub's scheme). The
 * prefix makes leaked keys easy for secret scanners to find; the checksum lets a mistyped or
 * truncated key be refused without touching the database. Only a SHA-256 of the key is stored.
 */
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export type KeyEnvironment = 'live' | 'test';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARS = 43; // 62^43 > 2^256
const CHECKSUM_CHARS = 6; // 62^6 > 2^32
const KEY_PATTERN = /^gk_(live|test)_([0-9A-Za-z]{43})([0-9A-Za-z]{6})$/;

export function generateApiKey(environment: KeyEnvironment): string {
  const body = `gk_${environment}_${toBase62(BigInt(`0x${randomBytes(32).toString('hex')}`), RANDOM_CHARS)}`;
  return body + checksumOf(body);
}

export type ParsedKey = { environment: KeyEnvironment; hash: Buffer };

/** The key's environment and hash, or undefined when it is not a well-formed Gatehouse key. */
export function parseApiKey(candidate: string): ParsedKey | undefined {
  const match = KEY_PATTERN.exec(candidate);
  if (!match) return undefined;
  const body = candidate.slice(0, -CHECKSUM_CHARS);
  if (checksumOf(body) !== match[3]) return undefined;
  return { environment: match[1] as KeyEnvironment, hash: hashApiKey(candidate) };
}

export const looksLikeApiKey = (credential: string) => credential.startsWith('gk_');

export const hashApiKey = (key: string): Buffer => createHash('sha256').update(key).digest();

/** What may be shown of a key after creation: its prefix and first four characters. */
export const displayPrefix = (key: string) => `${key.slice(0, 12)}…`;

function checksumOf(body: string): string {
  return toBase62(BigInt(crc32(body)), CHECKSUM_CHARS);
}

function toBase62(value: bigint, width: number): string {
  let text = '';
  for (let rest = value; rest > 0n; rest /= 62n) text = BASE62[Number(rest % 62n)] + text;
  return text.padStart(width, '0');
}
