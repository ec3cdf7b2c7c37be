/**
 * Recording an event: one row in the outbox, in the caller's tenant transaction, so an event
 * exists exactly when the change it reports was committed. Webhook delivery reads the outbox
 * (its fan-out trigger turns each new row into a delivery per subscribed endpoint).
 */
import type { Kysely } from 'kysely';
import { insertJsonRows, rowsAtCommit } from '../db/rows-at-commit.ts';
import type { Schema, Timestamp } from '../db/schema.ts';
import { type TenantTransaction, writeNow } from '../db/tenant.ts';
import { newId } from '../ids.ts';
import type { EventType, SHARED_EVENT_TYPES, TEST_EVENT_TYPE } from './event-types.ts';

declare module '../db/schema.ts' {
  interface Schema {
    event_outbox: {
      organization_id: string;
      id: string;
      type: string;
      data: unknown;
      request_id: string | null;
      created_at: Timestamp;
    };
  }
}

export type OutboxEvent = { type: EventType | typeof TEST_EVENT_TYPE; data: Record<string, unknown>; requestId?: string };

/** Records the event with the transaction (see recordEvents) and returns its id. */
export function recordEvent(trx: TenantTransaction, organizationId: string, event: OutboxEvent): string {
  return recordEvents(trx, organizationId, [event])[0] as string;
}

/**
 * Records events with the transaction and returns their ids, in order. They are inserted by the
 * transaction's last statement, with its audit events (see db/rows-at-commit.ts): that travels
 * with COMMIT, so announcing what a request did costs it no round trip.
 */
export function recordEvents(trx: TenantTransaction, organizationId: string, events: readonly OutboxEvent[]): string[] {
  const rows = events.map(outboxRow);
  rowsAtCommit(trx, 'event_outbox').push(...rows.map((row) => withOrganization(organizationId, row)));
  return rows.map((row) => row.id);
}

/** Inserts the event now and returns its id: for a row of this transaction that must reference it (a test delivery). */
export async function insertEventNow(trx: TenantTransaction, organizationId: string, event: OutboxEvent): Promise<string> {
  const row = outboxRow(event);
  await writeNow(trx, insertJsonRows('event_outbox', [withOrganization(organizationId, row)]));
  return row.id;
}

type OutboxRow = { id: string; type: string; data: Record<string, unknown>; request_id: string | null };

const outboxRow = (event: OutboxEvent): OutboxRow => ({ id: newId('evt'), type: event.type, data: event.data, request_id: event.requestId ?? null });

const withOrganization = (organizationId: string, row: OutboxRow) => ({ organization_id: organizationId, ...row });

/** Rows per INSERT when an event goes to every organization. */
const SHARED_BATCH = 1_000;

/**
 * An event no organization caused (a list version became active): one row per organization, so
 * that each reaches its own subscribers under its own row-level security, in the owner's
 * transaction that made the change. Returns how many organizations it was recorded for.
 */
export async function recordEventForEveryOrganization(
  owner: Kysely<Schema>,
  event: { type: (typeof SHARED_EVENT_TYPES)[number]; data: Record<string, unknown> },
): Promise<number> {
  const organizations = await owner.selectFrom('organizations').select('id').orderBy('id').execute();
  const data = JSON.stringify(event.data);
  for (let start = 0; start < organizations.length; start += SHARED_BATCH) {
    const rows = organizations.slice(start, start + SHARED_BATCH).map((o) => ({ organization_id: o.id, id: newId('evt'), type: event.type, data }));
    await owner.insertInto('event_outbox').values(rows).execute();
  }
  return organizations.length;
}

/** An event as stored. */
export type StoredEvent = { id: string; type: string; data: unknown; created_at: Date };

const EVENT_COLUMNS = ['id', 'type', 'data', 'created_at'] as const;

export async function findEvent(trx: TenantTransaction, id: string): Promise<StoredEvent | undefined> {
  return trx.selectFrom('event_outbox').select(EVENT_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** A page of events in id order, oldest or newest first, from past the event `from` (exclusive) when given. */
export async function listEvents(
  trx: TenantTransaction,
  page: { limit: number; from?: string; newestFirst?: boolean; types?: string[] },
): Promise<StoredEvent[]> {
  let query = trx
    .selectFrom('event_outbox')
    .select(EVENT_COLUMNS)
    .orderBy('id', page.newestFirst ? 'desc' : 'asc')
    .limit(page.limit);
  if (page.from) query = query.where('id', page.newestFirst ? '<' : '>', page.from);
  if (page.types?.length) query = query.where('type', 'in', page.types);
  return query.execute();
}
