/**
 * Audit events in the database. Appends happen inside the caller's tenant transaction, so an
 * event is committed exactly when the change it records is.
 */
import type { ColumnType, Selectable } from 'kysely';
import type { JsonStatement } from '../db/prepared-statements.ts';
import { sqlText } from '../db/sql-text.ts';
import type { TenantTransaction } from '../db/tenant.ts';
import { storedNamesOf } from './action-names.ts';
import { type ChainedFields, canonicalAroundSeq, type StoredLink } from './audit-chain.ts';
import { type EventKind, READ_ACTIONS } from './read-actions.ts';

type AuditEventRow = {
  organization_id: string;
  seq: ColumnType<string, number, never>;
  occurred_at: ColumnType<Date, string, never>;
  actor_type: string;
  actor_id: string;
  actor_role: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  request_id: string | null;
  source_ip: string | null;
  outcome: 'success' | 'failure';
  details: ColumnType<Record<string, unknown>, string, never>;
  prev_hash: Buffer;
  hash: Buffer;
};

declare module '../db/schema.ts' {
  interface Schema {
    audit_events: AuditEventRow;
    audit_heads: { organization_id: string; seq: ColumnType<string, number, number>; hash: Buffer };
  }
}

/** An event as recorded, before the chain gives it a sequence number. */
export type AuditEventInput = Omit<ChainedFields, 'seq'>;

const APPEND = sqlText`SELECT append_audit_events($1::jsonb) AS hash`;

/**
 * The statement that appends `events`, in order, to the transaction's organization's chain and
 * answers the new head's hash: the database function append_audit_events (migration 0032) locks
 * the head, chains each event after it, and moves the head on. The events travel as one JSON
 * array, each with its canonical JSON split around the sequence number only the locked head knows.
 */
export function appendStatement(events: readonly AuditEventInput[]): JsonStatement {
  return { text: APPEND, json: JSON.stringify(events.map(pendingRow)) };
}

/** An event as append_audit_events reads it: its columns, and its canonical JSON split around the sequence number. */
function pendingRow(event: AuditEventInput) {
  const { before, after } = canonicalAroundSeq(event);
  return {
    before,
    after,
    occurred_at: event.occurred_at,
    actor_type: event.actor.type,
    actor_id: event.actor.id,
    actor_role: event.actor.role,
    action: event.action,
    target_type: event.target.type,
    target_id: event.target.id,
    request_id: event.request_id,
    source_ip: event.source_ip,
    outcome: event.outcome,
    details: event.details,
  };
}

/**
 * Events with afterSeq < seq <= throughSeq, in order, as chain links. Reads go by bounded seq
 * windows rather than `seq > n LIMIT k`: without table statistics (the embedded database never
 * analyzes) the planner sorts every row past n for each batch, which made a long walk quadratic.
 */
export async function readLinks(trx: TenantTransaction, afterSeq: number, throughSeq: number): Promise<StoredLink[]> {
  return queryEvents(trx, {}, afterSeq, throughSeq);
}

/**
 * The chain hash of the event that recorded `action` on the target during the request: how a
 * record finds its own event, appended after the record was written. Looked up through the
 * request's index, then the target.
 */
export async function recordingEventHash(
  trx: TenantTransaction,
  action: string,
  target: { type: string; id: string },
  requestId: string,
): Promise<string | undefined> {
  const row = await trx
    .selectFrom('audit_events')
    .select('hash')
    .where('request_id', '=', requestId)
    .where('action', '=', action)
    .where('target_type', '=', target.type)
    .where('target_id', '=', target.id)
    .executeTakeFirst();
  return row && asBuffer(row.hash).toString('hex');
}

/** The sequence number of the organization's latest event (0 when it has none). */
export async function headSeq(trx: TenantTransaction): Promise<number> {
  const head = await trx.selectFrom('audit_heads').select('seq').executeTakeFirst();
  return Number(head?.seq ?? 0);
}

export function toLink(row: Selectable<AuditEventRow>): StoredLink {
  return {
    seq: Number(row.seq),
    prev_hash: asBuffer(row.prev_hash),
    hash: asBuffer(row.hash),
    fields: {
      seq: Number(row.seq),
      occurred_at: row.occurred_at.toISOString(),
      actor: { type: row.actor_type, id: row.actor_id, role: row.actor_role },
      action: row.action,
      target: { type: row.target_type, id: row.target_id },
      request_id: row.request_id,
      source_ip: row.source_ip,
      outcome: row.outcome,
      details: row.details,
    },
  };
}

/** node-postgres returns bytea as a Buffer, PGlite as a plain Uint8Array. */
const asBuffer = (bytes: Uint8Array): Buffer => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

export type EventFilter = { from?: Date; to?: Date; action?: string; actor?: string; requestId?: string; kind?: EventKind };

/** Events matching the filter with afterSeq < seq <= throughSeq, in chain order. */
export async function queryEvents(trx: TenantTransaction, filter: EventFilter, afterSeq: number, throughSeq: number) {
  const query = filtered(trx, filter)
    .where('seq', '>', afterSeq as never)
    .where('seq', '<=', throughSeq as never)
    .orderBy('seq');
  return (await query.execute()).map(toLink);
}

/** The latest `limit` events matching the filter, before `beforeSeq` when given, newest first: a page of the log. */
export async function latestEvents(trx: TenantTransaction, filter: EventFilter, beforeSeq: number | undefined, limit: number) {
  let query = filtered(trx, filter).orderBy('seq', 'desc').limit(limit);
  if (beforeSeq !== undefined) query = query.where('seq', '<', beforeSeq as never);
  return (await query.execute()).map(toLink);
}

function filtered(trx: TenantTransaction, filter: EventFilter) {
  let query = trx.selectFrom('audit_events').selectAll();
  if (filter.from) query = query.where('occurred_at', '>=', filter.from as never);
  if (filter.to) query = query.where('occurred_at', '<', filter.to as never);
  if (filter.action) query = query.where('action', 'in', storedNamesOf(filter.action));
  if (filter.actor) query = query.where('actor_id', '=', filter.actor);
  if (filter.requestId) query = query.where('request_id', '=', filter.requestId);
  if (filter.kind) query = query.where('action', filter.kind === 'read' ? 'in' : 'not in', READ_ACTIONS);
  return query;
}
