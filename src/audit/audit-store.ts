/**
 * Audit events in the database. Appends happen inside the caller's tenant transaction, so an
 * event is committed exactly when the change it records is.
 */
import { type ColumnType, type Selectable, sql } from 'kysely';
import type { TenantTransaction } from '../db/tenant.ts';
import { type ChainedFields, canonicalAroundSeq, chainHash, GENESIS_HASH, type StoredLink } from './audit-chain.ts';

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

/**
 * Appends events to the organization's chain in order. One event (what a request records) takes
 * one statement; more take two however many there are: the head is read and locked, the hashes
 * are chained here, and the events go in with the head's update in one statement (a bulk
 * operation's thousand screenings do not take three thousand).
 */
export async function appendEvents(trx: TenantTransaction, organizationId: string, events: readonly AuditEventInput[]): Promise<AuditRecord[]> {
  if (events.length === 0) return [];
  if (events.length === 1) return [await appendOne(trx, organizationId, events[0] as AuditEventInput)];
  const head = (await lockHead(trx)) ?? (await createHead(trx, organizationId));
  let previous = asBuffer(head.hash);
  let seq = Number(head.seq);
  const occurredAt = new Date().toISOString();
  const records: AuditRecord[] = [];
  const rows = events.map((event) => {
    const fields: ChainedFields = { ...event, seq: ++seq, occurred_at: occurredAt };
    const hash = chainHash(previous, fields);
    records.push({ ...fields, hash: hash.toString('hex'), prev_hash: previous.toString('hex') });
    const row = {
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
      prev_hash: previous,
      hash,
    };
    previous = hash;
    return row;
  });
  for (let at = 0; at < rows.length; at += INSERT_BATCH) {
    const batch = rows.slice(at, at + INSERT_BATCH);
    const last = batch.at(-1) as (typeof rows)[number];
    await trx
      .with('appended', (db) => db.insertInto('audit_events').values(batch))
      .updateTable('audit_heads')
      .set({ seq: last.seq, hash: last.hash })
      .execute();
  }
  return records;
}

/**
 * One event in one statement: the head is locked and moved on, and the event inserted after it,
 * the database computing the hash over exactly the bytes chainHash covers (the previous hash, then
 * the canonical JSON, completed with the sequence number only the locked head knows).
 */
async function appendOne(trx: TenantTransaction, organizationId: string, event: AuditEventInput): Promise<AuditRecord> {
  const occurredAt = new Date().toISOString();
  const { before, after } = canonicalAroundSeq({ ...event, occurred_at: occurredAt });
  const append = sql<{ seq: number | string; prev_hash: Uint8Array; hash: Uint8Array }>`
    WITH head AS (SELECT organization_id, seq, hash FROM audit_heads FOR UPDATE),
    moved AS (
      UPDATE audit_heads h
         SET seq = head.seq + 1, hash = sha256(head.hash || convert_to(${before} || (head.seq + 1)::text || ${after}, 'UTF8'))
        FROM head WHERE h.organization_id = head.organization_id
      RETURNING h.seq, h.hash, head.hash AS prev_hash)
    INSERT INTO audit_events (organization_id, seq, occurred_at, actor_type, actor_id, actor_role, action, target_type, target_id,
                              request_id, source_ip, outcome, details, prev_hash, hash)
    SELECT ${organizationId}::text, seq, ${occurredAt}::timestamptz, ${event.actor.type}::text, ${event.actor.id}::text, ${event.actor.role}::text,
           ${event.action}::text, ${event.target.type}::text, ${event.target.id}::text, ${event.request_id}::text, ${event.source_ip}::text,
           ${event.outcome}::text, ${JSON.stringify(event.details)}::jsonb, prev_hash, hash
      FROM moved
    RETURNING seq, prev_hash, hash`;
  let { rows } = await append.execute(trx);
  if (rows.length === 0) {
    await createHead(trx, organizationId);
    ({ rows } = await append.execute(trx));
  }
  const row = rows[0] as (typeof rows)[number];
  const fields: ChainedFields = { ...event, seq: Number(row.seq), occurred_at: occurredAt };
  return { ...fields, hash: asBuffer(row.hash).toString('hex'), prev_hash: asBuffer(row.prev_hash).toString('hex') };
}

/** Events per statement: 15 parameters each, well under PostgreSQL's 65,535. */
const INSERT_BATCH = 2_000;

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
