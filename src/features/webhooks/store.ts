/**
 * Webhook endpoints in the organization's tenant transaction. The sealed secrets are read only
 * by the service that rotates them and the worker that signs with them; views never carry them.
 */
import { sql } from 'kysely';
import type { TenantTransaction } from '../../db/tenant.ts';
import type { SealedSecrets } from '../../webhooks/signing-secrets.ts';
import type { DisabledReason } from './tables.ts';
import './tables.ts';

export type EndpointRecord = {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabled_reason: DisabledReason | null;
  disabled_at: Date | null;
  failing_since: Date | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

const RECORD_COLUMNS = [
  'id',
  'url',
  'description',
  'events',
  'enabled',
  'disabled_reason',
  'disabled_at',
  'failing_since',
  'previous_secret_expires_at',
  'created_at',
  'updated_at',
] as const;

const SECRET_COLUMNS = ['secret_ciphertext', 'previous_secret_ciphertext', 'previous_secret_expires_at'] as const;

export type NewEndpoint = { organizationId: string; id: string; url: string; description: string | null; events: string[]; sealed: SealedSecrets };

export async function insertEndpoint(trx: TenantTransaction, endpoint: NewEndpoint): Promise<EndpointRecord> {
  return trx
    .insertInto('webhook_endpoints')
    .values({
      organization_id: endpoint.organizationId,
      id: endpoint.id,
      url: endpoint.url,
      description: endpoint.description,
      events: endpoint.events,
      ...endpoint.sealed,
    })
    .returning(RECORD_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function findEndpoint(trx: TenantTransaction, id: string): Promise<EndpointRecord | undefined> {
  return trx.selectFrom('webhook_endpoints').select(RECORD_COLUMNS).where('id', '=', id).executeTakeFirst();
}

/** The organization's endpoints at this URL (a handful at most), to find one already subscribed to the same events. */
export async function endpointsAt(trx: TenantTransaction, url: string): Promise<EndpointRecord[]> {
  return trx.selectFrom('webhook_endpoints').select(RECORD_COLUMNS).where('url', '=', url).execute();
}

/** Locks the endpoint's row for the rest of the transaction (a rotation must not race another). */
export async function findSealedSecrets(trx: TenantTransaction, id: string): Promise<SealedSecrets | undefined> {
  return trx.selectFrom('webhook_endpoints').select(SECRET_COLUMNS).where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function listEndpoints(trx: TenantTransaction, page: { limit: number; after?: string }): Promise<EndpointRecord[]> {
  let query = trx.selectFrom('webhook_endpoints').select(RECORD_COLUMNS).orderBy('id').limit(page.limit);
  if (page.after) query = query.where('id', '>', page.after);
  return query.execute();
}

export type EndpointChanges = Partial<
  Pick<EndpointRecord, 'url' | 'description' | 'events' | 'enabled' | 'disabled_reason' | 'disabled_at' | 'failing_since'>
> &
  Partial<SealedSecrets>;

export async function updateEndpoint(trx: TenantTransaction, id: string, changes: EndpointChanges): Promise<EndpointRecord | undefined> {
  return trx
    .updateTable('webhook_endpoints')
    .set({ ...changes, updated_at: sql<Date>`now()` as never })
    .where('id', '=', id)
    .returning(RECORD_COLUMNS)
    .executeTakeFirst();
}

export async function deleteEndpoint(trx: TenantTransaction, id: string): Promise<boolean> {
  const result = await trx.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Disables an enabled endpoint (undefined when it was not enabled); then `cancelPending` stops its queue. */
export async function disableEndpoint(trx: TenantTransaction, id: string, reason: DisabledReason, now: Date): Promise<EndpointRecord | undefined> {
  return trx
    .updateTable('webhook_endpoints')
    .set({ enabled: false, disabled_reason: reason, disabled_at: now, updated_at: sql<Date>`now()` as never })
    .where('id', '=', id)
    .where('enabled', '=', true)
    .returning(RECORD_COLUMNS)
    .executeTakeFirst();
}

/** Pending deliveries of a disabled endpoint stop; they stay listed, and can be redelivered. */
export async function cancelPending(trx: TenantTransaction, endpointId: string): Promise<number> {
  const result = await trx
    .updateTable('webhook_deliveries')
    .set({ state: 'cancelled', next_attempt_at: null, claim_token: null, updated_at: sql<Date>`now()` as never })
    .where('endpoint_id', '=', endpointId)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
