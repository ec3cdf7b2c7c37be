/**
 * Rate limits: each credential has a token bucket (its organization's rate, or its tier's; bursts
 * of twice the rate), and each source address may fail authentication only so often. Answers
 * carry `RateLimit-Policy` and `RateLimit` (draft-ietf-httpapi-ratelimit-headers); a refusal is
 * 429 `rate_limited` with `Retry-After`. The buckets are kept in a LimitStore: on PostgreSQL shared
 * by every process (shared-limits.ts), so N processes behind a load balancer give the rate of one.
 */
import type { FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import type { RequestActor } from './actor.ts';
import { AppError } from './errors.ts';
import type { LimitStore } from './limit-store.ts';

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * The failed-authentication limit (AUTH_FAILURES_PER_MINUTE per source address) of one way in:
 * the API's credentials and the console's sign-ins are each counted on their own, the same way.
 */
export function failedAuthentications(limits: LimitStore, way: 'api' | 'console', perMinute: number) {
  const bucket = { capacity: perMinute, rate: perMinute / 60 };
  return (address: string) => limits.attempt(`${way}:${address}`, bucket);
}

export function createRateLimiter(config: Pick<Config, 'rateLimitPerSecond' | 'authFailuresPerMinute'>, limits: LimitStore) {
  const attemptFrom = failedAuthentications(limits, 'api', config.authFailuresPerMinute);
  const refuse = (retryAfter: number, detail: string) => new AppError('rate_limited', detail, { headers: { 'retry-after': String(Math.max(1, retryAfter)) } });
  const tooManyFailures = (wait: number) => refuse(wait, 'Too many failed authentications from this address; wait before trying again.');

  return {
    /** Before authenticating: refuses an address that has failed too often lately; what to say afterwards about the attempt. */
    async attempt(address: string) {
      const attempt = await attemptFrom(address);
      if (attempt.wait > 0) throw tooManyFailures(attempt.wait);
      return {
        release: attempt.release,
        /** Counts the failure; throws 429 instead when the address was out of tries already. */
        async failed() {
          const wait = await attempt.failed();
          if (wait > 0) throw tooManyFailures(wait);
        },
      };
    },

    /** Takes one request from the credential's bucket, setting the headers; refuses when empty. */
    async admit(actor: RequestActor, reply: FastifyReply) {
      const rate = actor.rateLimitPerSecond ?? config.rateLimitPerSecond[actor.tier];
      const bucket = { capacity: rate * 2, rate };
      const taken = await limits.admit(`${actor.kind}:${actor.organizationId}:${actor.id}`, bucket);
      reply.header('ratelimit-policy', `"credential";q=${bucket.capacity};w=${Math.ceil(bucket.capacity / rate)}`);
      reply.header('ratelimit', `"credential";r=${taken.remaining};t=${taken.fullInSeconds}`);
      if (!taken.allowed) throw refuse(taken.retryAfterSeconds, `This credential is limited to ${rate} requests a second (bursts of ${bucket.capacity}).`);
    },
  };
}
