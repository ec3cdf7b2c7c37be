/**
 * What the delivery worker reads and writes. Claiming is its one step across organizations (the
 * `claim_webhook_deliveries` function returns keys only); everything else happens in the
 * delivery's own organization's tenant transaction, under row-level security.
 */
import { sql } from 'kysely';
import type { Actor, TenantTransaction, WithTenant } from '../../../db/tenant.ts';
import type { StoredEvent } from '../../../events/outbox.ts';
import type { SealedSecrets } from '../../../webhooks/signing-secrets.ts';
import type { AttemptColumns, DeliveryKey, DeliveryState } from '../tables.ts';
import '../tables.ts';

/** Who the worker is, in the audit trail and in `app.actor`. */
export const deliveryActor = (organizationId: string): Actor => ({ organizationId, kind: 'system', id: 'webhook-delivery' });

export type Claim = { token: string; dueAt: Date; leaseUntil: Date; max: number };

export async function claimDue(withTenant: WithTenant, claim: Claim): Promise<DeliveryKey[]> {
  // No organization is set: the claim function refuses to run in any organization's transaction.
  return withTenant(deliveryActor(''), async (trx) => {
    const { rows } = await sql<{ organization_id: string; endpoint_id: string; event_id: string }>`
      SELECT * FROM claim_webhook_deliveries(${claim.dueAt}, ${claim.leaseUntil}, ${claim.max}, ${claim.token})`.execute(trx);
    return rows.map((r) => ({ organizationId: r.organization_id, endpointId: r.endpoint_id, eventId: r.event_id }));
  });
}

export type DeliveryWork = { url: string; sealed: SealedSecrets; event: StoredEvent };

/** The claimed delivery's endpoint and event, while the claim is still ours and the endpoint enabled. */
export async function loadClaimed(trx: TenantTransaction, key: DeliveryKey, token: string): Promise<DeliveryWork | undefined> {
  const row = await trx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_endpoints as w', (join) => join.onRef('w.organization_id', '=', 'd.organization_id').onRef('w.id', '=', 'd.endpoint_id'))
    .innerJoin('event_outbox as e', (join) => join.onRef('e.organization_id', '=', 'd.organization_id').onRef('e.id', '=', 'd.event_id'))
    .select(['w.url', 'w.secret_ciphertext', 'w.previous_secret_ciphertext', 'w.previous_secret_expires_at', 'e.id', 'e.type', 'e.data', 'e.created_at'])
    .where('d.endpoint_id', '=', key.endpointId)
    .where('d.event_id', '=', key.eventId)
    .where('d.state', '=', 'pending')
    .where('d.claim_token', '=', token)
    .where('w.enabled', '=', true)
    .executeTakeFirst();
  if (!row) return undefined;
  const { url, secret_ciphertext, previous_secret_ciphertext, previous_secret_expires_at, ...event } = row;
  return { url, sealed: { secret_ciphertext, previous_secret_ciphertext, previous_secret_expires_at }, event };
}

/**
 * Counts and keeps an attempt. `mine` says the claim is still this worker's (nobody redelivered
 * it meanwhile, no other worker took it over after the lease): only then may it decide what comes
 * next. `roundAttempts` counts this round's attempts, this one included.
 */
export async function recordAttempt(
  trx: TenantTransaction,
  key: DeliveryKey,
  token: string,
  attempt: AttemptColumns,
): Promise<{ mine: boolean; roundAttempts: number } | undefined> {
  const counted = await trx
    .updateTable('webhook_deliveries')
    .set({
      attempts: sql<number>`attempts + 1` as never,
      round_attempts: sql<number>`CASE WHEN claim_token = ${token} AND state = 'pending' THEN round_attempts + 1 ELSE round_attempts END` as never,
    })
    .where('endpoint_id', '=', key.endpointId)
    .where('event_id', '=', key.eventId)
    .returning(['attempts', 'round_attempts', sql<boolean>`coalesce(claim_token = ${token} AND state = 'pending', false)`.as('mine')])
    .executeTakeFirst();
  if (!counted) return undefined; // the endpoint was deleted meanwhile
  await trx
    .insertInto('webhook_attempts')
    .values({ organization_id: key.organizationId, endpoint_id: key.endpointId, event_id: key.eventId, number: counted.attempts, ...attempt })
    .execute();
  return { mine: counted.mine, roundAttempts: counted.round_attempts };
}

/** What comes after the attempt: done (succeeded or failed for good), or pending until `nextAttemptAt`. */
export async function settleDelivery(trx: TenantTransaction, key: DeliveryKey, token: string, state: DeliveryState, nextAttemptAt: Date | null) {
  await trx
    .updateTable('webhook_deliveries')
    .set({ state, next_attempt_at: nextAttemptAt, claim_token: null, updated_at: sql<Date>`now()` as never })
    .where('endpoint_id', '=', key.endpointId)
    .where('event_id', '=', key.eventId)
    .where('claim_token', '=', token)
    .execute();
}

/** A success ends the endpoint's failing streak. */
export async function markHealthy(trx: TenantTransaction, endpointId: string) {
  await trx.updateTable('webhook_endpoints').set({ failing_since: null }).where('id', '=', endpointId).where('failing_since', 'is not', null).execute();
}

/** A failure starts (or continues) its streak; returns since when it has been failing. */
export async function markFailing(trx: TenantTransaction, endpointId: string, now: Date): Promise<Date | undefined> {
  const row = await trx
    .updateTable('webhook_endpoints')
    .set({ failing_since: sql<Date>`coalesce(failing_since, ${now})` as never })
    .where('id', '=', endpointId)
    .returning('failing_since')
    .executeTakeFirst();
  return row?.failing_since ?? undefined;
}
