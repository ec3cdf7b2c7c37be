/**
 * Audit events in the database. Appends happen inside the caller's tenant transaction, so an
 * event is committed exactly when the change it records is.
 */
import type { ColumnType, Selectable } from 'kysely';
import type { TenantTransaction } from '../db/tenant.ts';
import { type ChainedFields, chainHash, GENESIS_HASH, type StoredLink } from './audit-chain.ts';

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

export type AuditEventInput = Omit<ChainedFields, 'seq' | 'occurred_at'>;
export type AuditRecord = ChainedFields & { hash: string; prev_hash: string };

export async function appendEvent(trx: TenantTransaction, organizationId: string, event: AuditEventInput): Promise<AuditRecord> {
  const head = (await lockHead(trx)) ?? (await createHead(trx, organizationId));
  head.hash = asBuffer(head.hash);

  const fields: ChainedFields = { ...event, seq: Number(head.seq) + 1, occurred_at: new Date().toISOString() };
  const hash = chainHash(head.hash, fields);
  await trx
    .insertInto('audit_events')
    .values({
      organization_id: organizationId,
      seq: fields.seq,
      occurred_at: fields.occurred_at,
      actor_type: fields.actor.type,
      actor_id: fields.actor.id,
      actor_role: fields.actor.role,
      action: fields.action,
      target_type: fields.target.type,
      target_id: fields.target.id,
      request_id: fields.request_id,
      source_ip: fields.source_ip,
      outcome: fields.outcome,
      details: JSON.stringify(fields.details),
      prev_hash: head.hash,
      hash,
    })
    .execute();
  await trx.updateTable('audit_heads').set({ seq: fields.seq, hash }).execute();
  return { ...fields, hash: hash.toString('hex'), prev_hash: head.hash.toString('hex') };
}

/** The organization's chain head, locked until the transaction ends; undefined before its first event. */
const lockHead = (trx: TenantTransaction) => trx.selectFrom('audit_heads').select(['seq', 'hash']).forUpdate().executeTakeFirst();

/** The first event of an organization starts its chain; two first writers at once meet at the conflict. */
async function createHead(trx: TenantTransaction, organizationId: string) {
  await trx
    .insertInto('audit_heads')
    .values({ organization_id: organizationId, seq: 0, hash: GENESIS_HASH })
    .onConflict((oc) => oc.column('organization_id').doNothing())
    .execute();
  return (await lockHead(trx)) as NonNullable<Awaited<ReturnType<typeof lockHead>>>;
}

/**
 * Events with afterSeq < seq <= throughSeq, in order, as chain links. Reads go by bounded seq
 * windows rather than `seq > n LIMIT k`: without table statistics (the embedded database never
 * analyzes) the planner sorts every row past n for each batch, which made a long walk quadratic.
 */
export async function readLinks(trx: TenantTransaction, afterSeq: number, throughSeq: number): Promise<StoredLink[]> {
  return queryEvents(trx, {}, afterSeq, throughSeq);
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
const asBuffer = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

export type EventFilter = { from?: Date; to?: Date; action?: string; actor?: string; requestId?: string };

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
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.actor) query = query.where('actor_id', '=', filter.actor);
  if (filter.requestId) query = query.where('request_id', '=', filter.requestId);
  return query;
}
