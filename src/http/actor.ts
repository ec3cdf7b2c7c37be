/**
 * The authenticated caller of a request. Authentication sets it; everything after reads it.
 */
import type { KeyEnvironment } from '../auth/api-key-format.ts';
import type { Tier } from '../db/schema.ts';
import type { Actor } from '../db/tenant.ts';

export type Role = 'admin' | 'adjudicator' | 'viewer';

export type RequestActor = Actor & {
  kind: 'api_key' | 'user';
  tier: Tier;
  /** May manage the organization's credentials (an admin key, or a person with the admin role). */
  admin: boolean;
  /** For API keys: live or sandbox. */
  environment?: KeyEnvironment;
  /** For people: their role. */
  role?: Role;
  /** The organization's own request rate per credential, when it has one (else the tier's). */
  rateLimitPerSecond?: number;
  /** For people: the token they presented, so that signing out can revoke it. */
  token?: { jti: string; expiresAt: Date };
};

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by authentication; undefined on public routes. */
    actor?: RequestActor;
  }
}

export type { Actor, Tier };
