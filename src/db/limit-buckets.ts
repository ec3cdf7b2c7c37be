/**
 * Token buckets in PostgreSQL, shared by every process of the service (0052_limit_buckets.sql),
 * read and written as the owner. Each operation is one statement, atomic however many processes
 * call it at once: the upsert takes the row's lock and computes from the row it locked. Time is
 * the database's `now()`, so the processes' clocks do not need to agree.
 */
import { type Kysely, sql } from 'kysely';
import type { Bucket } from '../http/token-bucket.ts';
import type { Schema } from './schema.ts';

/** What a take granted, and the tokens the bucket holds after it. */
export type Granted = { granted: number; tokens: number };

export type LimitBuckets = {
  /** Takes up to `want` tokens (at least 1) from `key`'s bucket: as many as it holds whole, or none when it holds less than one. */
  take(key: string, bucket: Bucket, want: number): Promise<Granted>;
  /** Puts back one token a take granted and no one needed after all; the tokens the bucket then holds (undefined: it is gone, as full). */
  giveBack(key: string): Promise<number | undefined>;
  /** Forgets the buckets that are full again (a missing bucket is a full one); how many. */
  sweep(): Promise<number>;
};

/** The tokens a row holds now: what it held, refilled since `at`, up to its capacity. */
const REFILLED = sql`least(capacity, tokens + greatest(0, extract(epoch FROM now() - at)::float8) * rate)`;

export function createLimitBuckets(owner: Kysely<Schema>): LimitBuckets {
  return {
    take: async (key, { capacity, rate }, want) => {
      // A new bucket starts full. On conflict, `excluded` is that new row: its `granted` is what
      // was wanted (never more than a full bucket), its `at` is now(), read once for the statement.
      const { rows } = await sql<Granted>`
        INSERT INTO limit_buckets AS held (key, capacity, rate, tokens, granted, at)
        SELECT asked.key, asked.capacity, asked.rate, asked.capacity - first.given, first.given, now()
          FROM (VALUES (${key}::text, ${capacity}::float8, ${rate}::float8, ${want}::int)) AS asked (key, capacity, rate, want),
               LATERAL (SELECT least(asked.want, floor(asked.capacity))::int AS given) AS first
        ON CONFLICT (key) DO UPDATE SET (tokens, granted, capacity, rate, at) = (
          SELECT refilled - given, given, excluded.capacity, excluded.rate, excluded.at
            FROM (SELECT least(excluded.capacity, held.tokens + greatest(0, extract(epoch FROM excluded.at - held.at)::float8) * excluded.rate) AS refilled) AS now_held,
                 LATERAL (SELECT CASE WHEN refilled >= 1 THEN least(excluded.granted, floor(refilled))::int ELSE 0 END AS given) AS decided)
        RETURNING granted, tokens`.execute(owner);
      return rows[0] as Granted;
    },
    giveBack: async (key) => {
      const { rows } = await sql<{ tokens: number }>`
        UPDATE limit_buckets SET tokens = least(capacity, ${REFILLED} + 1), at = now() WHERE key = ${key} RETURNING tokens`.execute(owner);
      return rows[0]?.tokens;
    },
    sweep: async () => {
      const { numAffectedRows } = await sql`DELETE FROM limit_buckets WHERE ${REFILLED} >= capacity`.execute(owner);
      return Number(numAffectedRows ?? 0);
    },
  };
}
