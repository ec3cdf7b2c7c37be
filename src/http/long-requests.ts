/**
 * Routes that may run longer than REQUEST_TIMEOUT_MS (a bulk sync of 50,000 profiles) say so in
 * their config: their connection is not cut while they work, and an idempotency reservation of
 * theirs is not taken for abandoned while they may still be running.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How long this route may take, when that is longer than the service-wide request timeout. */
    longRunningMs?: number;
  }
}

export function installLongRequests(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    const allowed = request.routeOptions.config?.longRunningMs;
    // inject() (tests) has no real socket to set a timeout on.
    const socket = request.raw.socket as { setTimeout?: (ms: number) => unknown } | undefined;
    if (allowed && typeof socket?.setTimeout === 'function') socket.setTimeout(allowed);
  });
}

/** How long a request to this route may run: its own allowance, or the service-wide timeout. */
export const runningTimeOf = (request: FastifyRequest, defaultMs: number): number => Math.max(defaultMs, request.routeOptions.config?.longRunningMs ?? 0);
