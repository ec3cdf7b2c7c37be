/**
 * An event as the outside world sees it, the same in a webhook's body and in `GET /api/v1/events`:
 * Standard Webhooks' `{type, timestamp, data}`, with the event's id (also the `webhook-id` header).
 */
import type { StoredEvent } from './outbox.ts';

export type EventEnvelope = { object: 'event'; id: string; type: string; timestamp: string; data: Record<string, unknown> };

export function eventEnvelope(event: StoredEvent): EventEnvelope {
  return { object: 'event', id: event.id, type: event.type, timestamp: new Date(event.created_at).toISOString(), data: event.data as Record<string, unknown> };
}
