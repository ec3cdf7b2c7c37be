/**
 * An endpoint's deliveries and their attempts, as its owners read them, and the manual
 * redelivery that puts one back in the queue. All in the organization's tenant transaction.
 */
import { sql } from 'kysely';
import type { TenantTransaction } from '../../db/tenant.ts';
import type { AttemptRecord, DeliveryState } from './tables.ts';
import './tables.ts';

export type DeliveryRecord = {
  endpoint_id: string;
  event_id: string;
  event_type: string;
  state: DeliveryState;
  attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
  history: AttemptRecord[];
};

function deliveries(trx: TenantTransaction, endpointId: string) {
  return trx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('event_outbox as e', (join) => join.onRef('e.organization_id', '=', 'd.organization_id').onRef('e.id', '=', 'd.event_id'))
    .select(['d.endpoint_id', 'd.event_id', 'e.type as event_type', 'd.state', 'd.attempts', 'd.next_attempt_at', 'd.created_at', 'd.updated_at'])
    .where('d.endpoint_id', '=', endpointId);
}

async function withHistory(trx: TenantTransaction, endpointId: string, rows: Omit<DeliveryRecord, 'history'>[]): Promise<DeliveryRecord[]> {
  if (rows.length === 0) return [];
  const attempts = await trx
    .selectFrom('webhook_attempts')
    .select(['event_id', 'number', 'attempted_at', 'outcome', 'status', 'latency_ms', 'response_body', 'error'])
    .where('endpoint_id', '=', endpointId)
    .where(
      'event_id',
      'in',
      rows.map((r) => r.event_id),
    )
    .orderBy('number')
    .execute();
  return rows.map((row) => ({ ...row, history: attempts.filter((a) => a.event_id === row.event_id).map(({ event_id: _, ...attempt }) => attempt) }));
}

/** Newest event first; `after` is the event id of the last delivery of the previous page. */
export async function listDeliveries(
  trx: TenantTransaction,
  endpointId: string,
  page: { limit: number; after?: string; state?: DeliveryState },
): Promise<DeliveryRecord[]> {
  let query = deliveries(trx, endpointId).orderBy('d.event_id', 'desc').limit(page.limit);
  if (page.after) query = query.where('d.event_id', '<', page.after);
  if (page.state) query = query.where('d.state', '=', page.state);
  return withHistory(trx, endpointId, await query.execute());
}

export async function findDelivery(trx: TenantTransaction, endpointId: string, eventId: string): Promise<DeliveryRecord | undefined> {
  const row = await deliveries(trx, endpointId).where('d.event_id', '=', eventId).executeTakeFirst();
  return row && (await withHistory(trx, endpointId, [row]))[0];
}

/**
 * Puts the delivery of an event to an endpoint in the queue, due at `dueAt`, for a new round of
 * the retry schedule (creating it if the event never went to this endpoint). Its webhook-id stays
 * the event id. A worker still holding an earlier attempt loses its claim.
 */
export async function queueDelivery(trx: TenantTransaction, organizationId: string, endpointId: string, eventId: string, dueAt: Date): Promise<void> {
  await trx
    .insertInto('webhook_deliveries')
    .values({ organization_id: organizationId, endpoint_id: endpointId, event_id: eventId, next_attempt_at: dueAt })
    // updated_at from the inserted row's default: Citus refuses now() in DO UPDATE SET.
    .onConflict((oc) =>
      oc.columns(['organization_id', 'endpoint_id', 'event_id']).doUpdateSet({
        state: 'pending',
        round_attempts: 0,
        next_attempt_at: dueAt,
        claim_token: null,
        updated_at: sql.ref('excluded.updated_at') as never,
      }),
    )
    .execute();
}
