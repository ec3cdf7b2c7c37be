/**
 * Token buckets kept in this process: each key holds up to `capacity` tokens, refilled at `rate`
 * per second. Least recently used keys are forgotten past `maxKeys`, so memory stays bounded
 * whatever the number of callers (a forgotten key simply starts again full).
 */
export type Bucket = { capacity: number; rate: number };
export type Take = { allowed: boolean; remaining: number; retryAfterSeconds: number; fullInSeconds: number };
/** What a bucket held, and when (seconds). */
export type Held = { tokens: number; at: number };

/** What a bucket holds `now`: what it held, refilled since, up to its capacity. */
export const refilled = (held: Held, bucket: Bucket, now: number) => Math.min(bucket.capacity, held.tokens + (now - held.at) * bucket.rate);

export class TokenBuckets {
  private readonly state = new Map<string, Held>();

  constructor(
    private readonly maxKeys = 100_000,
    private readonly now = () => performance.now() / 1000,
  ) {}

  /** Takes `cost` tokens if there are enough; reports what is left either way. */
  take(key: string, bucket: Bucket, cost = 1): Take {
    const now = this.now();
    const held = this.state.get(key);
    let tokens = held ? refilled(held, bucket, now) : bucket.capacity;
    const allowed = tokens >= cost;
    if (allowed) tokens -= cost;
    this.state.delete(key); // re-insert: Map order is our recency order
    this.state.set(key, { tokens, at: now });
    if (this.state.size > this.maxKeys) this.state.delete(this.state.keys().next().value as string);
    return {
      allowed,
      remaining: Math.floor(tokens),
      retryAfterSeconds: allowed ? 0 : Math.ceil((cost - tokens) / bucket.rate),
      fullInSeconds: Math.ceil((bucket.capacity - tokens) / bucket.rate),
    };
  }

  /** Seconds before `key` holds `cost` tokens: 0 when it holds them now. Takes nothing. */
  waitFor(key: string, bucket: Bucket, cost = 1): number {
    const held = this.state.get(key);
    if (!held) return 0;
    const tokens = refilled(held, bucket, this.now());
    return tokens >= cost ? 0 : Math.ceil((cost - tokens) / bucket.rate);
  }
}
