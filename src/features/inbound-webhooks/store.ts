/**
 * Inbound webhook receipts (key paths only, never values) and the organization's inbound signing
 * secret, in the organization's tenant transaction.
 */
import { sql } from 'kysely';
import type { Timestamp } from '../../db/schema.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import type { SealedSecrets } from '../../webhooks/signing-secrets.ts';

export const INBOUND_KINDS = ['screening_completed', 'visitor_checked_in', 'visitor_checked_out', 'session_escalated'] as const;
export type InboundKind = (typeof INBOUND_KINDS)[number];

declare module '../../db/schema.ts' {
  interface Schema {
    inbound_webhook_receipts: {
      organization_id: string;
      id: string;
      kind: InboundKind;
      key_paths: string[];
      key_paths_truncated: boolean;
      signed: boolean;
      webhook_id_sha256: string | null;
      request_id: string;
      received_at: Timestamp;
    };
    inbound_webhook_secrets: SealedSecrets & { organization_id: string; created_at: Timestamp; rotated_at: Date | null };
  }
}

export type Receipt = {
  id: string;
  kind: InboundKind;
  key_paths: string[];
  key_paths_truncated: boolean;
  signed: boolean;
  request_id: string;
  received_at: Date;
};

const RECEIPT_COLUMNS = ['id', 'kind', 'key_paths', 'key_paths_truncated', 'signed', 'request_id', 'received_at'] as const;

export type NewReceipt = Omit<Receipt, 'received_at'> & { organizationId: string; webhookIdSha256: string | null };

/** Records a receipt; a replayed webhook-id records nothing and answers the first receipt instead. */
export async function insertReceipt(trx: TenantTransaction, receipt: NewReceipt): Promise<{ receipt: Receipt; duplicate: boolean }> {
  const { organizationId, webhookIdSha256, ...fields } = receipt;
  const inserted = await trx
    .insertInto('inbound_webhook_receipts')
    .values({ ...fields, organization_id: organizationId, webhook_id_sha256: webhookIdSha256 })
    .onConflict((oc) => oc.columns(['organization_id', 'webhook_id_sha256']).where('webhook_id_sha256', 'is not', null).doNothing())
    .returning(RECEIPT_COLUMNS)
    .executeTakeFirst();
  if (inserted) return { receipt: inserted, duplicate: false };
  const first = await trx
    .selectFrom('inbound_webhook_receipts')
    .select(RECEIPT_COLUMNS)
    .where('webhook_id_sha256', '=', webhookIdSha256)
    .executeTakeFirstOrThrow();
  return { receipt: first, duplicate: true };
}

/** Newest first; `after` is the id of the last receipt of the previous page. */
export async function listReceipts(trx: TenantTransaction, page: { limit: number; after?: string; kind?: InboundKind }): Promise<Receipt[]> {
  let query = trx.selectFrom('inbound_webhook_receipts').select(RECEIPT_COLUMNS).orderBy('id', 'desc').limit(page.limit);
  if (page.after) query = query.where('id', '<', page.after);
  if (page.kind) query = query.where('kind', '=', page.kind);
  return query.execute();
}

export type SecretState = { created_at: Date; rotated_at: Date | null; previous_secret_expires_at: Date | null };

export async function findSecret(trx: TenantTransaction, lock = false): Promise<(SealedSecrets & SecretState) | undefined> {
  const query = trx
    .selectFrom('inbound_webhook_secrets')
    .select(['secret_ciphertext', 'previous_secret_ciphertext', 'previous_secret_expires_at', 'created_at', 'rotated_at']);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export async function insertSecret(trx: TenantTransaction, organizationId: string, sealed: SealedSecrets): Promise<SecretState> {
  return trx
    .insertInto('inbound_webhook_secrets')
    .values({ organization_id: organizationId, ...sealed })
    .returning(['created_at', 'rotated_at', 'previous_secret_expires_at'])
    .executeTakeFirstOrThrow();
}

/** Row-level security leaves one row to change: the organization's own (its primary key). */
export async function replaceSecret(trx: TenantTransaction, sealed: SealedSecrets): Promise<SecretState> {
  return trx
    .updateTable('inbound_webhook_secrets')
    .set({ ...sealed, rotated_at: sql<Date>`now()` as never })
    .returning(['created_at', 'rotated_at', 'previous_secret_expires_at'])
    .executeTakeFirstOrThrow();
}

export async function deleteSecret(trx: TenantTransaction): Promise<boolean> {
  const result = await trx.deleteFrom('inbound_webhook_secrets').executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
