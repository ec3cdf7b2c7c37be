/**
 * Idempotency keys in the database, one row per (organization, key), under row-level security.
 */
import { sql } from 'kysely';
import type { Timestamp } from '../../db/schema.ts';
import type { TenantTransaction } from '../../db/tenant.ts';

declare module '../../db/schema.ts' {
  interface Schema {
    idempotency_keys: {
      organization_id: string;
      key: string;
      request_fingerprint: string;
      state: 'in_progress' | 'completed';
      response_status: number | null;
      response_headers: Record<string, string> | null;
      response_body: string | null;
      created_at: Timestamp;
      expires_at: Timestamp;
    };
  }
}

export type StoredResponse = { status: number; headers: Record<string, string>; body: string };

export type Reservation = { outcome: 'reserved' } | { outcome: 'replay'; response: StoredResponse } | { outcome: 'in_progress' } | { outcome: 'mismatch' };

export type ReserveInput = {
  organizationId: string;
  key: string;
  fingerprint: string;
  /** How long a completed answer is kept for replays. */
  retentionSeconds: number;
  /** A request still 'in progress' after this long died with its process: its key is free again. */
  abandonAfterSeconds: number;
};

export async function reserveKey(trx: TenantTransaction, input: ReserveInput): Promise<Reservation> {
  await purgeSomeExpired(trx);
  const expires = sql<Date>`now() + make_interval(secs => ${input.retentionSeconds})`;
  const inserted = await trx
    .insertInto('idempotency_keys')
    .values({
      organization_id: input.organizationId,
      key: input.key,
      request_fingerprint: input.fingerprint,
      state: 'in_progress',
      expires_at: expires as never,
    })
    .onConflict((oc) => oc.columns(['organization_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (inserted) return { outcome: 'reserved' };

  // Lock the row so two retries arriving together see one consistent state.
  const existing = await trx
    .selectFrom('idempotency_keys')
    .select([
      'request_fingerprint',
      'state',
      'response_status',
      'response_headers',
      'response_body',
      sql<boolean>`expires_at < now()`.as('expired'),
      sql<boolean>`created_at < now() - make_interval(secs => ${input.abandonAfterSeconds})`.as('abandoned'),
    ])
    .where('key', '=', input.key)
    .forUpdate()
    .executeTakeFirstOrThrow();

  const reusable = existing.expired || (existing.state === 'in_progress' && existing.abandoned);
  if (reusable) {
    await trx
      .updateTable('idempotency_keys')
      .set({
        request_fingerprint: input.fingerprint,
        state: 'in_progress',
        response_status: null,
        response_headers: null,
        response_body: null,
        created_at: sql`now()` as never,
        expires_at: expires as never,
      })
      .where('key', '=', input.key)
      .execute();
    return { outcome: 'reserved' };
  }
  if (existing.request_fingerprint !== input.fingerprint) return { outcome: 'mismatch' };
  if (existing.state === 'in_progress') return { outcome: 'in_progress' };
  return {
    outcome: 'replay',
    response: {
      status: existing.response_status as number,
      headers: existing.response_headers ?? {},
      body: existing.response_body ?? '',
    },
  };
}

export async function completeKey(trx: TenantTransaction, key: string, response: StoredResponse) {
  await trx
    .updateTable('idempotency_keys')
    .set({
      state: 'completed',
      response_status: response.status,
      response_headers: JSON.stringify(response.headers) as never,
      response_body: response.body,
    })
    .where('key', '=', key)
    .where('state', '=', 'in_progress')
    .execute();
}

/** Forgets a reservation whose request failed on our side, so the caller's retry runs again. */
export async function releaseKey(trx: TenantTransaction, key: string) {
  await trx.deleteFrom('idempotency_keys').where('key', '=', key).where('state', '=', 'in_progress').execute();
}

/**
 * Expired keys are removed a few at a time as the organization makes keyed requests. By key, not
 * by `ctid`, which a distributed engine (Citus) refuses; the builder names the organization.
 */
async function purgeSomeExpired(trx: TenantTransaction) {
  await trx
    .deleteFrom('idempotency_keys')
    .where('key', 'in', (eb) => eb.selectFrom('idempotency_keys').select('key').where('expires_at', '<', sql<Date>`now() - interval '1 hour'`).limit(100))
    .execute();
}
