/**
 * Recording an event: one row in the outbox, in the caller's tenant transaction, so an event
 * exists exactly when the change it reports was committed. Webhook delivery reads the outbox.
 */
import type { Timestamp } from '../db/schema.ts';
import type { TenantTransaction } from '../db/tenant.ts';
import { newId } from '../ids.ts';

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

export type OutboxEvent = { type: string; data: Record<string, unknown>; requestId?: string };

export async function recordEvent(trx: TenantTransaction, organizationId: string, event: OutboxEvent): Promise<string> {
  const id = newId('evt');
  await trx
    .insertInto('event_outbox')
    .values({ organization_id: organizationId, id, type: event.type, data: JSON.stringify(event.data), request_id: event.requestId ?? null })
    .execute();
  return id;
}
