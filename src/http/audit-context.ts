import type { FastifyRequest } from 'fastify';
import type { AuditContext } from '../audit/audit.ts';
import { AppError } from './errors.ts';

/** Who is acting in this request, and from where, as the audit trail records it. */
export function auditContextOf(request: FastifyRequest): AuditContext {
  const actor = request.actor;
  if (!actor) throw new AppError('unauthenticated', 'This endpoint needs a credential.');
  return { actor: { ...actor, role: actor.role ?? null }, requestId: String(request.id), sourceIp: request.ip };
}
