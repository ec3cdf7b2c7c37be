/**
 * The webhook tables as Kysely sees them (migrations/0011_webhooks.sql says what each column means).
 */
import type { ColumnType } from 'kysely';
import type { Timestamp } from '../../db/schema.ts';

export type DisabledReason = 'manual' | 'gone' | 'failing';
export type DeliveryState = 'pending' | 'succeeded' | 'failed' | 'cancelled';
export type AttemptOutcome = 'succeeded' | 'http_error' | 'timeout' | 'network_error' | 'refused';

declare module '../../db/schema.ts' {
  interface Schema {
    webhook_endpoints: {
      organization_id: string;
      id: string;
      url: string;
      description: string | null;
      events: string[];
      enabled: ColumnType<boolean, boolean | undefined, boolean>;
      disabled_reason: DisabledReason | null;
      disabled_at: Date | null;
      failing_since: Date | null;
      secret_ciphertext: string;
      previous_secret_ciphertext: string | null;
      previous_secret_expires_at: Date | null;
      created_at: Timestamp;
      updated_at: Timestamp;
    };
    webhook_deliveries: {
      organization_id: string;
      endpoint_id: string;
      event_id: string;
      state: ColumnType<DeliveryState, DeliveryState | undefined, DeliveryState>;
      attempts: ColumnType<number, number | undefined, number>;
      round_attempts: ColumnType<number, number | undefined, number>;
      next_attempt_at: Date | null;
      claim_token: string | null;
      created_at: Timestamp;
      updated_at: Timestamp;
    };
    webhook_attempts: AttemptRecord & { organization_id: string; endpoint_id: string; event_id: string };
  }
}

/** What one attempt was, as kept and as shown. */
export type AttemptColumns = {
  attempted_at: Date;
  outcome: AttemptOutcome;
  status: number | null;
  latency_ms: number;
  response_body: string | null;
  error: string | null;
};

/** An attempt and its number among its delivery's attempts. */
export type AttemptRecord = AttemptColumns & { number: number };

/** The key of a delivery: one event to one endpoint of one organization. */
export type DeliveryKey = { organizationId: string; endpointId: string; eventId: string };
