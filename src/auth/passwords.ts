/**
 * Passwords of people who sign in to the console: scrypt with N=2^17, r=8, p=1, a random 16-byte
 * salt and a 32-byte key (OWASP's scrypt setting), compared in constant time. The stored string
 * carries its parameters (`scrypt$17$8$1$<salt>$<key>`, base64), so they can be raised later
 * without invalidating existing passwords.
 *
 * One derivation takes 128 MiB and about 0.4 s: they run one at a time in this process, so a burst
 * of sign-ins waits its turn instead of exhausting memory.
 */
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

const CURRENT = { logN: 17, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;

type Parameters = typeof CURRENT;

let queue: Promise<unknown> = Promise.resolve();

function derive(password: string, salt: Buffer, { logN, r, p }: Parameters): Promise<Buffer> {
  const N = 2 ** logN;
  // scrypt needs 128·N·r bytes; Node refuses past `maxmem` (32 MiB by default).
  const options: ScryptOptions = { N, r, p, maxmem: 2 * 128 * N * r };
  // NFKC: the same password typed on another keyboard or system gives the same bytes.
  const run = () =>
    new Promise<Buffer>((resolve, reject) =>
      scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))),
    );
  const result = queue.then(run, run);
  queue = result.catch(() => undefined);
  return result;
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, CURRENT);
  return ['scrypt', CURRENT.logN, CURRENT.r, CURRENT.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether `password` is the one `stored` was made from; a malformed `stored` never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, key] = stored.split('$');
  const parameters = { logN: Number(logN), r: Number(r), p: Number(p) };
  if (scheme !== 'scrypt' || !salt || !key || !Object.values(parameters).every((n) => Number.isInteger(n) && n > 0 && n <= 32)) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), parameters);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** The same work as a verification, for an address nobody has: the answer takes as long either way. */
export async function verifyNobody(password: string): Promise<false> {
  await derive(password, randomBytes(SALT_BYTES), CURRENT);
  return false;
}

/** Why a new password is refused, in words for the person choosing it; null when it is acceptable. */
export function passwordProblem(password: string, email: string): string | null {
  const length = [...password.normalize('NFKC')].length;
  if (length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters long`;
  if (length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters long`;
  const local = email.split('@')[0]?.toLowerCase() ?? '';
  if (local.length >= 4 && password.toLowerCase().includes(local)) return 'must not contain your email address';
  if (new Set(password).size < 4) return 'must not repeat the same few characters';
  return null;
}
