/**
 * A credential's requests counted in the shared buckets without a round trip for each: a process
 * takes a few tokens at once from the shared bucket (a lease, a twentieth of the bucket) and
 * spends them on the credential's next requests, going back to the database only when they are
 * spent. Every request is still paid for by a token taken from the one shared bucket, so over
 * time a credential gets its rate however many processes serve it; a burst can exceed the bucket
 * by the leases the processes hold unspent, at most a twentieth of the bucket each. A small
 * bucket (under 40 tokens) leases one token at a time: exact, a round trip per request.
 *
 * Requests that find the lease spent while another request of theirs is renewing it wait for that
 * renewal rather than each taking a lease of its own.
 */
import type { LimitBuckets } from '../db/limit-buckets.ts';
import type { Bucket, Take } from './token-bucket.ts';

/** A lease is this share of the bucket. */
const LEASE_PARTS = 20;

/** Tokens this process holds for a key, and what the shared bucket had left when they were taken. */
type Lease = { tokens: number; left: number };

export const leaseSize = (bucket: Bucket) => Math.max(1, Math.floor(bucket.capacity / LEASE_PARTS));

export class LeasedTokens {
  private readonly leases = new Map<string, Lease>();
  /** Renewals under way, each answering undefined when it brought tokens, or the refusal. */
  private readonly renewals = new Map<string, Promise<Take | undefined>>();

  constructor(
    private readonly buckets: Pick<LimitBuckets, 'take'>,
    /** Least recently used leases past this are dropped (their tokens are lost, never given twice). */
    private readonly maxKeys = 100_000,
  ) {}

  /** Takes one token for a request: at once from the lease, else from a renewed one. */
  take(key: string, bucket: Bucket): Take | Promise<Take> {
    const lease = this.leases.get(key);
    return lease && lease.tokens >= 1 ? this.spend(key, lease, bucket) : this.renew(key, bucket);
  }

  private spend(key: string, lease: Lease, bucket: Bucket): Take {
    lease.tokens -= 1;
    this.leases.delete(key); // re-insert: Map order is our recency order
    this.leases.set(key, lease);
    // What remains as this process knows it: the bucket when the lease was taken, and the lease.
    const remaining = lease.left + lease.tokens;
    return { allowed: true, remaining: Math.floor(remaining), retryAfterSeconds: 0, fullInSeconds: Math.ceil((bucket.capacity - remaining) / bucket.rate) };
  }

  private async renew(key: string, bucket: Bucket): Promise<Take> {
    let renewal = this.renewals.get(key);
    if (!renewal) {
      renewal = this.lease(key, bucket).finally(() => this.renewals.delete(key));
      this.renewals.set(key, renewal);
    }
    const refusal = await renewal;
    const lease = this.leases.get(key);
    if (lease && lease.tokens >= 1) return this.spend(key, lease, bucket);
    // Refused; or the requests that waited with this one spent what the renewal brought.
    return refusal ?? this.renew(key, bucket);
  }

  private async lease(key: string, bucket: Bucket): Promise<Take | undefined> {
    const { granted, tokens } = await this.buckets.take(key, bucket, leaseSize(bucket));
    if (granted > 0) {
      this.leases.set(key, { tokens: granted, left: tokens });
      if (this.leases.size > this.maxKeys) this.leases.delete(this.leases.keys().next().value as string);
      return undefined;
    }
    this.leases.delete(key);
    return {
      allowed: false,
      remaining: 0,
      retryAfterSeconds: Math.ceil((1 - tokens) / bucket.rate),
      fullInSeconds: Math.ceil((bucket.capacity - tokens) / bucket.rate),
    };
  }
}
