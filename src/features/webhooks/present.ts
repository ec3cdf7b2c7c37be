/**
 * Endpoints and deliveries as callers see them: never a secret, dates as ISO 8601.
 */
import type { DeliveryRecord } from './deliveries-store.ts';
import type { EndpointRecord } from './store.ts';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function presentEndpoint(record: EndpointRecord) {
  return {
    object: 'webhook_endpoint' as const,
    id: record.id,
    url: record.url,
    description: record.description,
    events: record.events,
    enabled: record.enabled,
    disabled_reason: record.disabled_reason,
    disabled_at: iso(record.disabled_at),
    failing_since: iso(record.failing_since),
    previous_secret_expires_at: iso(record.previous_secret_expires_at),
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
}

export function presentDelivery(record: DeliveryRecord) {
  return {
    object: 'webhook_delivery' as const,
    endpoint_id: record.endpoint_id,
    event_id: record.event_id,
    event_type: record.event_type,
    state: record.state,
    attempts: record.attempts,
    next_attempt_at: iso(record.next_attempt_at),
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
    history: record.history.map((attempt) => ({ ...attempt, attempted_at: attempt.attempted_at.toISOString() })),
  };
}
