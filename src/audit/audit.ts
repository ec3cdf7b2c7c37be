/**
 * Recording privileged actions. Services call `recordAudit` with the transaction that makes the
 * change, so the change and its record commit together or not at all.
 */
import type { Actor, TenantTransaction } from '../db/tenant.ts';
import { type AuditEventInput, type AuditRecord, appendEvents } from './audit-store.ts';

/** Who acted and where the request came from; the route builds it once and hands it down. */
export type AuditContext = {
  actor: Actor & { role?: string | null };
  requestId: string | null;
  sourceIp: string | null;
};

export type AuditEvent = {
  action: string;
  target?: { type: string; id: string };
  outcome?: 'success' | 'failure';
  /** What the action needs to be understood later; never secrets, never more personal data than needed. */
  details?: Record<string, unknown>;
};

export async function recordAudit(trx: TenantTransaction, context: AuditContext, event: AuditEvent): Promise<AuditRecord> {
  return (await recordAudits(trx, context, [event]))[0] as AuditRecord;
}

/** Several events of one request, chained in this order, in as few statements as the chain allows. */
export function recordAudits(trx: TenantTransaction, context: AuditContext, events: readonly AuditEvent[]): Promise<AuditRecord[]> {
  const inputs = events.map(
    (event): AuditEventInput => ({
      actor: { type: context.actor.kind, id: context.actor.id, role: context.actor.role ?? null },
      action: event.action,
      target: { type: event.target?.type ?? null, id: event.target?.id ?? null },
      request_id: context.requestId,
      source_ip: context.sourceIp,
      outcome: event.outcome ?? 'success',
      details: event.details ?? {},
    }),
  );
  return appendEvents(trx, context.actor.organizationId, inputs);
}
