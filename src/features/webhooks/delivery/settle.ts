/**
 * What an attempt's outcome means, written in the delivery's tenant transaction: the attempt is
 * kept; a 2xx ends the delivery and the endpoint's failing streak; a 410 disables the endpoint;
 * any other failure is retried on the schedule (or fails for good once the round is spent), and
 * an endpoint failing for five days is disabled. Disabling cancels its pending deliveries and is
 * audited as the delivery worker's act.
 */
import { recordAudit } from '../../../audit/audit.ts';
import type { TenantTransaction } from '../../../db/tenant.ts';
import { DISABLE_AFTER_FAILING_MS, nextAttemptDelayMs } from '../../../webhooks/retry-schedule.ts';
import { cancelPending, disableEndpoint } from '../store.ts';
import type { DeliveryKey, DeliveryState, DisabledReason } from '../tables.ts';
import { deliveryActor, markFailing, markHealthy, recordAttempt, settleDelivery } from './delivery-store.ts';
import type { SendResult } from './sender.ts';

export type AttemptToSettle = { key: DeliveryKey; token: string; attemptedAt: Date; result: SendResult; now: Date; random: () => number };

export type Settled = { state?: DeliveryState; next_attempt_at?: string | null; endpoint_disabled?: DisabledReason };

export async function settleAttempt(trx: TenantTransaction, attempt: AttemptToSettle): Promise<Settled> {
  const { key, token, result, now } = attempt;
  const counted = await recordAttempt(trx, key, token, {
    attempted_at: attempt.attemptedAt,
    outcome: result.outcome,
    status: result.status,
    latency_ms: result.latencyMs,
    response_body: result.responseBody,
    error: result.error,
  });
  if (!counted) return {};

  let state: DeliveryState;
  let next: Date | null = null;
  let disable: DisabledReason | undefined;
  if (result.outcome === 'succeeded') {
    state = 'succeeded';
    await markHealthy(trx, key.endpointId);
  } else if (result.status === 410) {
    state = 'failed';
    disable = 'gone';
  } else {
    const delay = nextAttemptDelayMs(counted.roundAttempts, {
      ...(result.retryAfterMs !== undefined && { retryAfterMs: result.retryAfterMs }),
      random: attempt.random,
    });
    state = delay === undefined ? 'failed' : 'pending';
    next = delay === undefined ? null : new Date(now.getTime() + delay);
    const failingSince = await markFailing(trx, key.endpointId, now);
    if (failingSince && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_FAILING_MS) disable = 'failing';
  }
  if (counted.mine) await settleDelivery(trx, key, token, state, next);
  if (disable) await disableForDelivery(trx, key, disable, now, result.status);
  return { state, next_attempt_at: next?.toISOString() ?? null, ...(disable && { endpoint_disabled: disable }) };
}

async function disableForDelivery(trx: TenantTransaction, key: DeliveryKey, reason: DisabledReason, now: Date, status: number | null) {
  if (!(await disableEndpoint(trx, key.endpointId, reason, now))) return; // disabled already
  const cancelled = await cancelPending(trx, key.endpointId);
  recordAudit(
    trx,
    { actor: deliveryActor(key.organizationId), requestId: null, sourceIp: null },
    {
      action: 'webhook_endpoint.disabled',
      target: { type: 'webhook_endpoint', id: key.endpointId },
      details: { reason, status, event_id: key.eventId, cancelled_deliveries: cancelled },
    },
  );
}
