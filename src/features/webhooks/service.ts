/**
 * Managing webhook endpoints: create (the secret is shown once), read, change, delete, rotate
 * the secret (the old one keeps signing for 24 hours), send a test event, list deliveries and
 * redeliver. Every change is audited in the transaction that makes it. A URL is checked (shape
 * and resolved addresses) before the transaction opens: DNS is not waited for with it open.
 */
import { type AuditContext, recordAudit } from '../../audit/audit.ts';
import type { TenantTransaction, WithTenant } from '../../db/tenant.ts';
import { TEST_EVENT_TYPE } from '../../events/event-types.ts';
import { findEvent, insertEventNow } from '../../events/outbox.ts';
import { AppError } from '../../http/errors.ts';
import { newId } from '../../ids.ts';
import type { AddressPolicy } from '../../webhooks/address-policy.ts';
import type { SecretBox } from '../../webhooks/secret-box.ts';
import { newSealedSecret, rotatedSecrets } from '../../webhooks/signing-secrets.ts';
import { type DeliveryRecord, findDelivery, listDeliveries, queueDelivery } from './deliveries-store.ts';
import { RefusedDestination, type Resolver, resolveDestination } from './delivery/destination.ts';
import { endpointSecretContext } from './secret-context.ts';
import {
  cancelPending,
  deleteEndpoint,
  disableEndpoint,
  type EndpointChanges,
  type EndpointRecord,
  endpointsAt,
  findEndpoint,
  findSealedSecrets,
  insertEndpoint,
  listEndpoints,
  updateEndpoint,
} from './store.ts';
import type { DeliveryState } from './tables.ts';

export type WebhookServiceOptions = {
  withTenant: WithTenant;
  secrets: SecretBox;
  policy: AddressPolicy;
  resolve: Resolver;
  /** How long a URL's host may take to resolve when it is given. */
  resolveTimeoutMs: number;
  clock?: () => Date;
};

export type EndpointInput = { url: string; events: string[]; description?: string | null };
export type EndpointUpdate = Partial<EndpointInput> & { enabled?: boolean };
export type Page = { limit: number; after?: string };

export function createWebhookService(options: WebhookServiceOptions) {
  const { withTenant, secrets } = options;
  const clock = options.clock ?? (() => new Date());

  /** Refuses a URL webhooks may not be sent to, naming the field. */
  async function checkUrl(url: string): Promise<string> {
    try {
      await resolveDestination(url, options.policy, options.resolve, options.resolveTimeoutMs);
      return url;
    } catch (error) {
      if (!(error instanceof RefusedDestination)) throw error;
      throw new AppError('validation_failed', `The URL cannot receive webhooks: ${error.message}`, {
        errors: [{ pointer: '/url', detail: error.message, in: 'body' }],
      });
    }
  }

  /** The endpoint, or 404 (another organization's ids too). */
  const existing = async (trx: TenantTransaction, id: string) => (await findEndpoint(trx, id)) ?? notFound(id);

  const audit = (trx: TenantTransaction, context: AuditContext, action: string, id: string, details: Record<string, unknown>) =>
    recordAudit(trx, context, { action: `webhook_endpoint.${action}`, target: { type: 'webhook_endpoint', id }, details });

  return {
    async create(context: AuditContext, input: EndpointInput): Promise<{ record: EndpointRecord; secret: string }> {
      const url = await checkUrl(input.url);
      const organizationId = context.actor.organizationId;
      const id = newId('we');
      const { secret, sealed } = newSealedSecret(secrets, endpointSecretContext(organizationId, id));
      const record = await withTenant(context.actor, async (trx) => {
        // Subscribing twice (an automation platform retrying its subscribe) must not double every delivery.
        const wanted = [...new Set(input.events)].sort().join(',');
        const same = (await endpointsAt(trx, url)).find((e) => [...new Set(e.events)].sort().join(',') === wanted);
        if (same) {
          throw new AppError(
            'conflict',
            `Endpoint ${same.id} already receives these events at this URL; use it (its secret was shown when it was created), or delete it first.`,
            {
              endpoint_id: same.id,
            },
          );
        }
        const created = await insertEndpoint(trx, { organizationId, id, url, description: input.description ?? null, events: input.events, sealed });
        await audit(trx, context, 'created', id, { host: new URL(url).host, events: input.events });
        return created;
      });
      return { record, secret };
    },

    list: (context: AuditContext, page: Page) => withTenant(context.actor, (trx) => listEndpoints(trx, page)),

    get: (context: AuditContext, id: string) => withTenant(context.actor, (trx) => existing(trx, id)),

    async update(context: AuditContext, id: string, update: EndpointUpdate): Promise<EndpointRecord> {
      if (update.url !== undefined) await checkUrl(update.url);
      return withTenant(context.actor, async (trx) => {
        await existing(trx, id);
        const { enabled, ...fields } = update;
        const changes: EndpointChanges = { ...fields };
        if (enabled === true) Object.assign(changes, { enabled: true, disabled_reason: null, disabled_at: null, failing_since: null });
        let updated = (await updateEndpoint(trx, id, changes)) as EndpointRecord;
        if (enabled === false) {
          updated = (await disableEndpoint(trx, id, 'manual', clock())) ?? updated;
          await cancelPending(trx, id);
        }
        await audit(trx, context, 'updated', id, {
          changed: Object.keys(update).sort(),
          host: new URL(updated.url).host,
          events: updated.events,
          enabled: updated.enabled,
        });
        return updated;
      });
    },

    async remove(context: AuditContext, id: string): Promise<void> {
      await withTenant(context.actor, async (trx) => {
        const endpoint = await existing(trx, id);
        await deleteEndpoint(trx, id);
        await audit(trx, context, 'deleted', id, { host: new URL(endpoint.url).host, events: endpoint.events });
      });
    },

    async rotateSecret(context: AuditContext, id: string): Promise<{ record: EndpointRecord; secret: string }> {
      return withTenant(context.actor, async (trx) => {
        const current = (await findSealedSecrets(trx, id)) ?? notFound(id);
        const now = clock();
        const { secret, sealed } = rotatedSecrets(secrets, current, endpointSecretContext(context.actor.organizationId, id), now);
        const record = (await updateEndpoint(trx, id, sealed)) as EndpointRecord;
        await audit(trx, context, 'secret_rotated', id, { previous_secret_expires_at: sealed.previous_secret_expires_at?.toISOString() });
        return { record, secret };
      });
    },

    /** Queues a `webhook.test` event to this endpoint alone; the worker sends it within a poll interval. */
    async sendTest(context: AuditContext, id: string): Promise<DeliveryRecord> {
      return withTenant(context.actor, async (trx) => {
        const endpoint = await enabledEndpoint(trx, id, 'sent a test event');
        const organizationId = context.actor.organizationId;
        // The delivery below references the event, so it goes in now rather than at commit.
        const eventId = await insertEventNow(trx, organizationId, {
          type: TEST_EVENT_TYPE,
          data: { endpoint_id: endpoint.id },
          ...(context.requestId && { requestId: context.requestId }),
        });
        await queueDelivery(trx, organizationId, id, eventId, clock());
        await audit(trx, context, 'test_sent', id, { event_id: eventId });
        return (await findDelivery(trx, id, eventId)) as DeliveryRecord;
      });
    },

    async deliveries(context: AuditContext, id: string, page: Page & { state?: DeliveryState }): Promise<DeliveryRecord[]> {
      return withTenant(context.actor, async (trx) => {
        await existing(trx, id);
        return listDeliveries(trx, id, page);
      });
    },

    /** Sends an event (any of the organization's) to the endpoint again, for a new round of retries, with the same webhook-id. */
    async redeliver(context: AuditContext, id: string, eventId: string): Promise<DeliveryRecord> {
      return withTenant(context.actor, async (trx) => {
        await enabledEndpoint(trx, id, 'redelivered to');
        if (!(await findEvent(trx, eventId))) throw new AppError('not_found', `There is no event ${eventId} in your organization.`);
        await queueDelivery(trx, context.actor.organizationId, id, eventId, clock());
        await audit(trx, context, 'redelivery_requested', id, { event_id: eventId });
        return (await findDelivery(trx, id, eventId)) as DeliveryRecord;
      });
    },
  };

  async function enabledEndpoint(trx: TenantTransaction, id: string, action: string): Promise<EndpointRecord> {
    const endpoint = await existing(trx, id);
    if (!endpoint.enabled) {
      throw new AppError('conflict', `The endpoint is disabled (${endpoint.disabled_reason}); enable it before it can be ${action}.`, {
        disabled_reason: endpoint.disabled_reason,
      });
    }
    return endpoint;
  }
}

export type WebhookService = ReturnType<typeof createWebhookService>;

function notFound(id: string): never {
  throw new AppError('not_found', `There is no webhook endpoint ${id} in your organization.`);
}
