/**
 * Every /api/v1 route is authenticated unless it says `config: { public: true }`, and states its
 * tier and the kind of operation it is (`config: { tier: 'defense', permission: 'operate' }`); a
 * route that does not stops the app from starting. Who may call what is the permission matrix
 * (permissions.ts), enforced here for the API and shown in each operation's OpenAPI description.
 * Unknown /api/v1 paths are authenticated too, so the API's shape is not revealed to strangers.
 */
import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../auth/authenticator.ts';
import type { Tier } from '../db/schema.ts';
import type { RequestActor } from './actor.ts';
import { authorizeRoute, documentAccess, type Permission, requireDeclaredAccess } from './permissions.ts';
import type { RateLimiter } from './rate-limit.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Needs no credential (the OpenAPI document). */
    public?: boolean;
    /** The tier an organization needs to call this route. */
    tier?: Tier;
    /** What kind of operation the route is: who may call it (permissions.ts). */
    permission?: Permission;
  }
}

export const API_PREFIX = '/api/v1';

export function installAuthentication(app: FastifyInstance, authenticate: Authenticator, limiter: RateLimiter) {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_PREFIX)) return;
    const access = requireDeclaredAccess(route);
    if (access === 'public') return;
    route.schema ??= {};
    documentAccess(route.schema, access.tier, access.permission);
    Object.assign(route.schema, { security: [{ bearerAuth: [] }] });
  });

  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith(`${API_PREFIX}/`) || request.routeOptions.config.public) return;
    const attempt = await limiter.attempt(request.ip);
    let actor: RequestActor;
    try {
      actor = await authenticate(request.headers.authorization, { requestId: String(request.id), sourceIp: request.ip });
    } catch (error) {
      await attempt.failed();
      throw error;
    }
    await attempt.release();
    await limiter.admit(actor, reply);
    request.actor = actor;
    authorizeRoute(request);
  });
}
