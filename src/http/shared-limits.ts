/**
 * The limits for this process's database: on PostgreSQL, counted in the buckets every process
 * shares (limit_buckets), credentials' requests through leases (leased-tokens.ts) and failed
 * authentications through reservations (reserved-attempts.ts), so that a warm request sends no
 * statement for its limits; on the embedded database, which one process holds, in its memory.
 */
import type { Database } from '../db/database.ts';
import type { LimitBuckets } from '../db/limit-buckets.ts';
import { LeasedTokens } from './leased-tokens.ts';
import { type LimitStore, memoryLimitStore } from './limit-store.ts';
import { ReservedAttempts } from './reserved-attempts.ts';

/** How often, at most, a process sweeps the buckets that are full again, after one of its takes. */
const SWEEP_INTERVAL_MS = 60_000;

export function limitStoreFor(db: Pick<Database, 'backend' | 'limitBuckets'>, onSweepError: (error: unknown) => void): LimitStore {
  return db.backend === 'pglite' ? memoryLimitStore() : sharedLimitStore(db.limitBuckets, onSweepError);
}

export function sharedLimitStore(buckets: LimitBuckets, onSweepError: (error: unknown) => void): LimitStore {
  // Swept from the processes that write (no timer, nothing to stop): rows come only from takes.
  let sweptAt = performance.now();
  const sweeping: LimitBuckets = {
    ...buckets,
    take: async (key, bucket, want) => {
      const granted = await buckets.take(key, bucket, want);
      if (performance.now() - sweptAt >= SWEEP_INTERVAL_MS) {
        sweptAt = performance.now();
        buckets.sweep().catch(onSweepError);
      }
      return granted;
    },
  };
  const credentials = new LeasedTokens(sweeping);
  const failures = new ReservedAttempts(sweeping);
  return {
    admit: (key, bucket) => credentials.take(`credential:${key}`, bucket),
    attempt: (key, bucket) => failures.attempt(`failed:${key}`, bucket),
  };
}
