import type { FastifyRequest } from 'fastify';
import type { AuditContext } from '../audit/audit.ts';
import { AppError } from './errors.ts';

/** Who is acting in this request, and from where, as the audit trail records it. */
export function auditContextOf(request: FastifyRequest): AuditContext {
  const actor = request.actor;
  if (!actor) throw new AppError('unauthenticated', 'This endpoint needs a credential.');
  return { actor: { ...actor, role: actor.role ?? null }, requestId: String(request.id), sourceIp: request.ip };
}

/** Refuses a caller who is neither an admin key nor a person with the admin role. */
export function requireAdmin(request: FastifyRequest, action: string) {
  if (!request.actor?.admin) throw new AppError('forbidden', `${action} needs an admin key or a person with the admin role.`);
}

/** Refuses a person whose role only lets them look (viewer); keys and other roles may decide. */
export function requireDecider(request: FastifyRequest, action: string) {
  if (request.actor?.kind === 'user' && request.actor.role === 'viewer') throw new AppError('forbidden', `${action} needs the adjudicator or admin role; yours is viewer.`);
}
