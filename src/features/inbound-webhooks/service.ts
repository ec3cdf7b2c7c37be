/**
 * Receiving webhooks as the interface spec says: acknowledge, and keep only the payload's key
 * paths with the kind, time, organization and request id. When the organization set an inbound
 * secret, a request must carry a valid Standard Webhooks signature within the timestamp
 * tolerance; a replayed webhook-id is acknowledged again and recorded once.
 */
import { type AuditContext, recordAudit } from '../../audit/audit.ts';
import type { TenantTransaction, WithTenant } from '../../db/tenant.ts';
import { AppError } from '../../http/errors.ts';
import { newId } from '../../ids.ts';
import { sha256Hex } from '../../sha256.ts';
import { payloadKeyPaths } from '../../webhooks/payload-keys.ts';
import type { SecretBox } from '../../webhooks/secret-box.ts';
import { activeSecrets, newSealedSecret, rotatedSecrets } from '../../webhooks/signing-secrets.ts';
import { type SignedRequest, verificationFailure } from '../../webhooks/standard-webhooks.ts';
import {
  deleteSecret,
  findSecret,
  type InboundKind,
  insertReceipt,
  insertSecret,
  listReceipts,
  type Receipt,
  replaceSecret,
  type SecretState,
} from './store.ts';

export type InboundServiceOptions = { withTenant: WithTenant; secrets: SecretBox; clock?: () => Date };

const secretContext = (organizationId: string) => `inbound_webhook_secret:${organizationId}`;

const FAILURE_DETAILS = {
  missing_headers: 'This organization verifies inbound webhooks: send webhook-id, webhook-timestamp and webhook-signature (Standard Webhooks).',
  stale_timestamp: 'webhook-timestamp is more than 5 minutes from our clock (or not a Unix time in seconds).',
  invalid_signature: 'webhook-signature matches none of the signatures of this request under your inbound secret.',
} as const;

export function createInboundWebhookService(options: InboundServiceOptions) {
  const { withTenant, secrets } = options;
  const clock = options.clock ?? (() => new Date());

  async function verify(trx: TenantTransaction, organizationId: string, request: SignedRequest): Promise<boolean> {
    const stored = await findSecret(trx);
    if (!stored) return false;
    const now = clock();
    const failure = verificationFailure(request, activeSecrets(secrets, stored, secretContext(organizationId), now), Math.floor(now.getTime() / 1000));
    if (failure) throw new AppError('invalid_signature', FAILURE_DETAILS[failure], { reason: failure });
    return true;
  }

  return {
    /** `payload` is the parsed body; `request.body` the raw text the signature covers. */
    async receive(context: AuditContext, kind: InboundKind, payload: unknown, request: SignedRequest) {
      const organizationId = context.actor.organizationId;
      const { paths, truncated } = payloadKeyPaths(payload);
      return withTenant(context.actor, async (trx) => {
        const signed = await verify(trx, organizationId, request);
        const stored = await insertReceipt(trx, {
          organizationId,
          id: newId('iwh'),
          kind,
          key_paths: paths,
          key_paths_truncated: truncated,
          signed,
          request_id: context.requestId ?? 'none',
          // Hashed: the sender's id is only compared, never shown.
          webhookIdSha256: request.id ? sha256Hex(request.id) : null,
        });
        return { ...stored, paths, truncated };
      });
    },

    receipts: (context: AuditContext, page: { limit: number; after?: string; kind?: InboundKind }): Promise<Receipt[]> =>
      withTenant(context.actor, (trx) => listReceipts(trx, page)),

    /** Sets the inbound secret, or rotates it (the previous one stays valid 24 hours). Shown once. */
    async setSecret(context: AuditContext): Promise<{ secret: string; state: SecretState; created: boolean }> {
      const organizationId = context.actor.organizationId;
      return withTenant(context.actor, async (trx) => {
        const current = await findSecret(trx, true);
        const { secret, sealed } = current
          ? rotatedSecrets(secrets, current, secretContext(organizationId), clock())
          : newSealedSecret(secrets, secretContext(organizationId));
        const state = current ? await replaceSecret(trx, sealed) : await insertSecret(trx, organizationId, sealed);
        recordAudit(trx, context, {
          action: current ? 'inbound_webhook_secret.rotated' : 'inbound_webhook_secret.created',
          target: { type: 'organization', id: organizationId },
        });
        return { secret, state, created: !current };
      });
    },

    async secretState(context: AuditContext): Promise<SecretState> {
      return (await withTenant(context.actor, (trx) => findSecret(trx))) ?? noSecret();
    },

    async removeSecret(context: AuditContext): Promise<void> {
      await withTenant(context.actor, async (trx) => {
        if (!(await deleteSecret(trx))) noSecret();
        recordAudit(trx, context, { action: 'inbound_webhook_secret.deleted', target: { type: 'organization', id: context.actor.organizationId } });
      });
    },
  };
}

export type InboundWebhookService = ReturnType<typeof createInboundWebhookService>;

function noSecret(): never {
  throw new AppError('not_found', 'Your organization has no inbound webhook secret: inbound webhooks are accepted unsigned.');
}
