/**
 * Every /api/v1 route is authenticated unless it says `config: { public: true }`, and states its
 * tier (`config: { tier: 'defense' | 'enterprise' }`); a route that does neither stops the app
 * from starting. Defense routes serve both tiers; Enterprise routes refuse a Defense organization.
 * Unknown /api/v1 paths are authenticated too, so the API's shape is not revealed to strangers.
 */
import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../auth/authenticator.ts';
import type { Tier } from '../db/schema.ts';
import type { RequestActor } from './actor.ts';
import { AppError } from './errors.ts';
import type { RateLimiter } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Needs no credential (the OpenAPI document). */
    public?: boolean;
    /** The tier an organization needs to call this route. */
    tier?: Tier;
  }
}

export const API_PREFIX = '/api/v1';

export function installAuthentication(app: FastifyInstance, authenticate: Authenticator, limiter: RateLimiter) {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX) || route.config?.public) return;
    const tier = route.config?.tier;
    if (!tier) throw new Error(`${route.method} ${route.url} must declare config.tier (or config.public)`);
    route.schema ??= {};
    Object.assign(route.schema, { 'x-tier': tier, security: [{ bearerAuth: [] }] });
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith(`${API_PREFIX}/`) || request.routeOptions.config.public) return;
    limiter.checkAddress(request.ip);
    let actor: RequestActor;
    try {
      actor = await authenticate(request.headers.authorization, { requestId: String(request.id), sourceIp: request.ip });
    } catch (error) {
      limiter.authenticationFailed(request.ip);
      throw error;
    }
    limiter.admit(actor, reply);
    request.actor = actor;
    const required = request.routeOptions.config.tier;
    if (required === 'enterprise' && actor.tier !== 'enterprise') {
      throw new AppError('tier_required', 'This endpoint is part of the Enterprise tier; your organization has Defense.', {
        required_tier: 'enterprise',
      });
    }
  });
}
