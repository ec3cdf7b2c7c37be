/**
 * Where the rate limits are counted, behind one interface: a credential's requests, and a source
 * address's failed authentications (the API's and the console's alike). On the embedded database,
 * which one process holds by construction, in that process's memory (here); on PostgreSQL, in a
 * table every process shares (shared-limits.ts), so that N processes behind a load balancer give a
 * caller the allowance of one.
 */
import { type Bucket, type Take, TokenBuckets } from './token-bucket.ts';

/** An authentication from a source address, before it is tried. */
export type AuthenticationAttempt = {
  /** Seconds the address must wait before it may try again; 0 when this attempt may go ahead. */
  wait: number;
  /** The attempt did not fail: whatever it held is given back. */
  release(): Promise<void>;
  /** It failed, and is counted: seconds to wait when the address was out of tries already (answer 429 then), else 0. */
  failed(): Promise<number>;
};

export type LimitStore = {
  /** One request from a credential: a token from its bucket. */
  admit(key: string, bucket: Bucket): Take | Promise<Take>;
  /** An authentication from `key` (an address, and what it signs in to), checked against its failures' bucket. */
  attempt(key: string, bucket: Bucket): AuthenticationAttempt | Promise<AuthenticationAttempt>;
};

/** The limits of one process, in its memory. */
export function memoryLimitStore(): LimitStore {
  const credentials = new TokenBuckets();
  const failures = new TokenBuckets();
  return {
    admit: (key, bucket) => credentials.take(key, bucket),
    attempt: (key, bucket) => ({
      wait: failures.waitFor(key, bucket),
      release: async () => {},
      failed: async () => failures.take(key, bucket).retryAfterSeconds,
    }),
  };
}
