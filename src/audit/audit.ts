/**
 * Recording privileged actions. Services call `recordAudit` with the transaction that makes the
 * change; the event is appended to the organization's chain by the transaction's last statement,
 * after its other final writes and just before it commits, so the change and its record commit
 * together or not at all, and the chain's head is locked only for the append and the commit (see
 * collectAtCommit in db/tenant.ts).
 */
import { type Actor, collectAtCommit, type TenantTransaction, writeNow } from '../db/tenant.ts';
import { type AuditEventInput, appendStatement } from './audit-store.ts';

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

/** Records the event with the transaction: it is appended at commit, after the events recorded before it. */
export function recordAudit(trx: TenantTransaction, context: AuditContext, event: AuditEvent): void {
  recordAudits(trx, context, [event]);
}

/** Several events of one request, chained in this order. */
export function recordAudits(trx: TenantTransaction, context: AuditContext, events: readonly AuditEvent[]): void {
  pendingEvents(trx).push(...events.map((event) => auditEventInput(context, event)));
}

/** Events built earlier, each with its own actor and time (reads kept in memory, see read-trail.ts), chained in this order. */
export function recordAuditInputs(trx: TenantTransaction, inputs: readonly AuditEventInput[]): void {
  pendingEvents(trx).push(...inputs);
}

/**
 * Appends the event now, after any the transaction recorded before it, and answers its chain
 * hash: for a bulk operation whose screenings name the event that records them all. Its
 * organization's other writers wait for this transaction's commit, which is why requests record
 * rather than append.
 */
export async function appendAuditNow(trx: TenantTransaction, context: AuditContext, event: AuditEvent): Promise<string> {
  const events = pendingEvents(trx);
  events.push(auditEventInput(context, event));
  const rows = await writeNow<{ hash: Uint8Array }>(trx, appendStatement(events.splice(0)));
  return Buffer.from(rows[0]?.hash ?? []).toString('hex');
}

/** The events a transaction recorded and has not appended yet. */
const pendingEvents = (trx: TenantTransaction) => collectAtCommit(trx, PENDING, appendStatement, { last: true, tables: ['audit_events', 'audit_heads'] });
const PENDING = Symbol('pending audit events');

/** The event as the chain records it, stamped now. */
export function auditEventInput(context: AuditContext, event: AuditEvent): AuditEventInput {
  return {
    occurred_at: new Date().toISOString(),
    actor: { type: context.actor.kind, id: context.actor.id, role: context.actor.role ?? null },
    action: event.action,
    target: { type: event.target?.type ?? null, id: event.target?.id ?? null },
    request_id: context.requestId,
    source_ip: context.sourceIp,
    outcome: event.outcome ?? 'success',
    details: event.details ?? {},
  };
}
