/**
 * A source address's failed authentications counted in the shared buckets. Every failure is
 * counted there at once: failures are rare, and an attacker pays the round trip. Checking every
 * attempt there would cost every request one, so a process checks only an address it has seen
 * fail lately (its bucket not yet full again, as last seen here). Such an attempt reserves a
 * token before it is tried, and gives it back if it does not fail: however many processes an
 * address's attempts reach, each is decided by the one shared bucket, concurrent ones included.
 *
 * An address this process has not seen fail goes ahead unchecked, and its failure, if it is one,
 * is counted then: when the address was out of tries already, the answer is 429, and from then on
 * this process checks it. So N processes give an address at most one attempt more than one process
 * would, per process, each time that process's view of it runs out (its bucket full again as last
 * seen here: a minute after its last failure seen here, with the default AUTH_FAILURES_PER_MINUTE).
 * While the bucket, as last seen, cannot hold a try yet (nothing but time and given-back tries add
 * to it), the process refuses the address itself: an attacker past the limit costs the database
 * a statement per try that comes back, not one per attempt.
 */
import type { Granted, LimitBuckets } from '../db/limit-buckets.ts';
import type { AuthenticationAttempt } from './limit-store.ts';
import { type Bucket, type Held, refilled } from './token-bucket.ts';

const nothingHeld = { release: async () => {}, failed: async () => 0 };

export class ReservedAttempts {
  /** Addresses seen failing lately: their bucket as last seen (this process's clock, in seconds). */
  private readonly seen = new Map<string, Held>();

  constructor(
    private readonly buckets: Pick<LimitBuckets, 'take' | 'giveBack'>,
    private readonly now = () => performance.now() / 1000,
    /** Least recently seen addresses past this are forgotten, and are then checked after their next failure. */
    private readonly maxKeys = 100_000,
  ) {}

  attempt(key: string, bucket: Bucket): AuthenticationAttempt | Promise<AuthenticationAttempt> {
    const held = this.seen.get(key);
    // At most what it held then plus the refill since, as far as other processes go: they only take.
    const tokens = held ? refilled(held, bucket, this.now()) : bucket.capacity;
    if (tokens < 1) return { wait: Math.ceil((1 - tokens) / bucket.rate), ...nothingHeld };
    if (tokens < bucket.capacity) return this.reserve(key, bucket);
    this.seen.delete(key);
    return {
      wait: 0,
      release: async () => {},
      failed: async () => this.waitAfter(key, bucket, await this.buckets.take(key, bucket, 1)),
    };
  }

  private async reserve(key: string, bucket: Bucket): Promise<AuthenticationAttempt> {
    const wait = this.waitAfter(key, bucket, await this.buckets.take(key, bucket, 1));
    if (wait > 0) return { wait, ...nothingHeld };
    return {
      wait,
      release: async () => this.see(key, (await this.buckets.giveBack(key)) ?? bucket.capacity),
      failed: async () => 0, // counted when it was reserved
    };
  }

  /** Notes what the bucket holds after a take; the seconds to wait when the take granted nothing, else 0. */
  private waitAfter(key: string, bucket: Bucket, { granted, tokens }: Granted): number {
    this.see(key, tokens);
    return granted > 0 ? 0 : Math.ceil((1 - tokens) / bucket.rate);
  }

  private see(key: string, tokens: number) {
    this.seen.delete(key); // re-insert: Map order is our recency order
    this.seen.set(key, { tokens, at: this.now() });
    if (this.seen.size > this.maxKeys) this.seen.delete(this.seen.keys().next().value as string);
  }
}
