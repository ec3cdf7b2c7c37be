/**
 * The authenticated caller of a request. Authentication sets it; everything after reads it.
 */
import type { Actor } from '../db/tenant.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by authentication; undefined on public routes. */
    actor?: Actor;
  }
}

export type { Actor };
