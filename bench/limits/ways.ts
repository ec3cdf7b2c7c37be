/**
 * bench:limits' ways of counting the limits, each a LimitStore over the same database, and the
 * statements each sends there (counted around the shared table's operations).
 */
import type { LimitBuckets } from '../../src/db/limit-buckets.ts';
import { type LimitStore, memoryLimitStore } from '../../src/http/limit-store.ts';
import { sharedLimitStore } from '../../src/http/shared-limits.ts';

export type Way = {
  name: string;
  /** The credentials' rate (requests a second; bursts of twice that). */
  rate: number;
  /** Failed authentications from each caller's address before the run: with some, this process checks its attempts all through it. */
  failuresBefore: number;
  store(buckets: LimitBuckets): LimitStore;
};

/** The shared table's operations, counted: what a way sends to the database. */
export function countedBuckets(buckets: LimitBuckets): { buckets: LimitBuckets; sent: () => number } {
  let sent = 0;
  return {
    buckets: {
      take: (...args) => (sent++, buckets.take(...args)),
      giveBack: (...args) => (sent++, buckets.giveBack(...args)),
      sweep: (...args) => (sent++, buckets.sweep(...args)),
    },
    sent: () => sent,
  };
}

const failSweep = (error: unknown) => {
  throw error;
};

/** A credential's every request taken from the shared bucket itself: what a statement a request costs, and the leases save. */
function oneStatementARequest(buckets: LimitBuckets): LimitStore {
  const shared = sharedLimitStore(buckets, failSweep);
  return {
    attempt: shared.attempt,
    admit: async (key, bucket) => {
      const { granted, tokens } = await buckets.take(`credential:${key}`, bucket, 1);
      return {
        allowed: granted > 0,
        remaining: Math.floor(tokens),
        retryAfterSeconds: granted > 0 ? 0 : Math.ceil((1 - tokens) / bucket.rate),
        fullInSeconds: Math.ceil((bucket.capacity - tokens) / bucket.rate),
      };
    },
  };
}

export const WAYS: Way[] = [
  { name: 'memory (the embedded database; every process before)', rate: 200, failuresBefore: 0, store: () => memoryLimitStore() },
  { name: 'shared, Enterprise default 200/s (leases of 20)', rate: 200, failuresBefore: 0, store: (b) => sharedLimitStore(b, failSweep) },
  { name: 'shared, Defense default 50/s (leases of 5)', rate: 50, failuresBefore: 0, store: (b) => sharedLimitStore(b, failSweep) },
  { name: 'shared, a statement a request (no lease), 200/s', rate: 200, failuresBefore: 0, store: oneStatementARequest },
  { name: 'shared, 200/s, every address failing lately (reserve, give back)', rate: 200, failuresBefore: 15, store: (b) => sharedLimitStore(b, failSweep) },
];
