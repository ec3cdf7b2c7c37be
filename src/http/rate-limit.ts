/**
 * Rate limits, per process: each credential has a token bucket (its organization's rate, or its
 * tier's; bursts of twice the rate), and each source address may fail authentication only so
 * often. Answers carry `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers);
 * a refusal is 429 `rate_limited` with `Retry-After`. With N processes behind a load balancer a
 * caller gets up to N times the rate; see README.
 */
import type { FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import type { RequestActor } from './actor.ts';
import { AppError } from './errors.ts';
import { type Bucket, TokenBuckets } from './token-bucket.ts';

export type RateLimiter = ReturnType<typeof createRateLimiter>;

export function createRateLimiter(config: Pick<Config, 'rateLimitPerSecond' | 'authFailuresPerMinute'>) {
  const credentials = new TokenBuckets();
  const failures = new TokenBuckets();
  const failureBucket: Bucket = { capacity: config.authFailuresPerMinute, rate: config.authFailuresPerMinute / 60 };

  const refuse = (retryAfter: number, detail: string) => new AppError('rate_limited', detail, { headers: { 'retry-after': String(Math.max(1, retryAfter)) } });

  return {
    /** Refuses an address that has failed authentication too often lately. */
    checkAddress(address: string) {
      if (!failures.has(address, failureBucket)) {
        throw refuse(Math.ceil(1 / failureBucket.rate), 'Too many failed authentications from this address; wait before trying again.');
      }
    },

    authenticationFailed(address: string) {
      failures.take(address, failureBucket);
    },

    /** Takes one request from the credential's bucket, setting the headers; refuses when empty. */
    admit(actor: RequestActor, reply: FastifyReply) {
      const rate = actor.rateLimitPerSecond ?? config.rateLimitPerSecond[actor.tier];
      const bucket = { capacity: rate * 2, rate };
      const taken = credentials.take(`${actor.kind}:${actor.organizationId}:${actor.id}`, bucket);
      reply.header('ratelimit-policy', `"credential";q=${bucket.capacity};w=${Math.ceil(bucket.capacity / rate)}`);
      reply.header('ratelimit', `"credential";r=${taken.remaining};t=${taken.fullInSeconds}`);
      if (!taken.allowed) throw refuse(taken.retryAfterSeconds, `This credential is limited to ${rate} requests a second (bursts of ${bucket.capacity}).`);
    },
  };
}
