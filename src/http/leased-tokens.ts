/**
 * A credential's requests counted in the shared buckets without a round trip for each: a process
 * takes a few tokens at once from the shared bucket (a lease, a twentieth of the bucket) and
 * spends them on the credential's next requests, going back to the database only when they are
 * spent. Every request is still paid for by a token taken from the one shared bucket, so over
 * time a credential gets its rate however many processes serve it; a burst can exceed the bucket
 * by the leases the processes hold unspent, at most a twentieth of the bucket each. A small
 * bucket (under 40 tokens) leases one token at a time: exact, a round trip per request.
 *
 * A process that found the shared bucket empty refuses the credential's requests itself until the
 * bucket can hold a token again (nothing but time adds tokens to it), so a caller past its limit
 * costs the database a statement per token at most, not one per request. Requests that find the
 * lease spent while another request of theirs is renewing it wait for that renewal rather than
 * each taking a lease of its own.
 */
import type { LimitBuckets } from '../db/limit-buckets.ts';
import { type Bucket, type Held, refilled, type Take } from './token-bucket.ts';

/** A lease is this share of the bucket. */
const LEASE_PARTS = 20;

/** Tokens this process holds for a key, and the shared bucket as it was when they were taken. */
type Lease = { tokens: number; shared: Held };

export const leaseSize = (bucket: Bucket) => Math.max(1, Math.floor(bucket.capacity / LEASE_PARTS));

export class LeasedTokens {
  private readonly leases = new Map<string, Lease>();
  /** Renewals under way, each answering undefined when it brought tokens, or the refusal. */
  private readonly renewals = new Map<string, Promise<Take | undefined>>();

  constructor(
    private readonly buckets: Pick<LimitBuckets, 'take'>,
    private readonly now = () => performance.now() / 1000,
    /** Least recently used leases past this are dropped (their tokens are lost, never given twice). */
    private readonly maxKeys = 100_000,
  ) {}

  /** Takes one token for a request: at once from the lease, else from a renewed one. */
  take(key: string, bucket: Bucket): Take | Promise<Take> {
    const lease = this.leases.get(key);
    if (lease && lease.tokens >= 1) return this.spend(key, lease, bucket);
    // At most what it held then plus the refill since: other processes only take.
    const shared = lease && refilled(lease.shared, bucket, this.now());
    if (shared !== undefined && shared < 1) return refusal(shared, bucket);
    return this.renew(key, bucket);
  }

  private spend(key: string, lease: Lease, bucket: Bucket): Take {
    lease.tokens -= 1;
    this.leases.delete(key); // re-insert: Map order is our recency order
    this.leases.set(key, lease);
    // What remains as this process knows it: the bucket when the lease was taken, and the lease.
    const remaining = lease.shared.tokens + lease.tokens;
    return { allowed: true, remaining: Math.floor(remaining), retryAfterSeconds: 0, fullInSeconds: Math.ceil((bucket.capacity - remaining) / bucket.rate) };
  }

  private async renew(key: string, bucket: Bucket): Promise<Take> {
    let renewal = this.renewals.get(key);
    if (!renewal) {
      renewal = this.lease(key, bucket).finally(() => this.renewals.delete(key));
      this.renewals.set(key, renewal);
    }
    const refused = await renewal;
    const lease = this.leases.get(key);
    if (lease && lease.tokens >= 1) return this.spend(key, lease, bucket);
    // Refused; or the requests that waited with this one spent what the renewal brought.
    return refused ?? this.renew(key, bucket);
  }

  private async lease(key: string, bucket: Bucket): Promise<Take | undefined> {
    const { granted, tokens } = await this.buckets.take(key, bucket, leaseSize(bucket));
    this.leases.delete(key);
    this.leases.set(key, { tokens: granted, shared: { tokens, at: this.now() } });
    if (this.leases.size > this.maxKeys) this.leases.delete(this.leases.keys().next().value as string);
    return granted > 0 ? undefined : refusal(tokens, bucket);
  }
}

function refusal(tokens: number, bucket: Bucket): Take {
  return {
    allowed: false,
    remaining: 0,
    retryAfterSeconds: Math.ceil((1 - tokens) / bucket.rate),
    fullInSeconds: Math.ceil((bucket.capacity - tokens) / bucket.rate),
  };
}
