/**
 * Outbound webhooks, the REST-hook shape automation tools (Zapier, n8n, Make) subscribe with:
 * endpoints (the secret is shown once), their deliveries and redelivery, a test event. Managing
 * them needs an admin key or the admin role; they are Defense tier, as are most of the events.
 * When the service listens, the delivery worker (service-and-worker.ts; WEBHOOK_WORKER) starts in
 * this process, and it stops when the process closes.
 */
import { Type } from 'typebox';
import { auditContextOf } from '../../http/audit-context.ts';
import type { Api, Feature } from '../../http/feature.ts';
import { pageStartsAfter } from '../../http/id-page.ts';
import { cursorPage } from '../../http/list-page.ts';
import type { DeliveryWorker } from './delivery/worker.ts';
import { presentDelivery, presentEndpoint } from './present.ts';
import {
  CreateEndpointBody,
  DeletedEndpointSchema,
  DeliveryListQuery,
  DeliveryListSchema,
  DeliveryParams,
  DeliverySchema,
  EndpointIdParams,
  EndpointListSchema,
  EndpointSchema,
  EndpointWithSecretSchema,
  ListQuery,
  UpdateEndpointBody,
} from './schemas.ts';
import type { WebhookService } from './service.ts';

const TAGS = ['webhooks'];

const webhooks: Feature<{ webhooks: WebhookService; webhookWorker: DeliveryWorker | undefined }> = {
  name: 'webhooks',
  async register(api, _context, { webhooks: service, webhookWorker: worker }) {
    if (worker) {
      api.addHook('onListen', async () => worker.start());
      api.addHook('onClose', async () => worker.stop());
    }
    api.addSchema(EndpointSchema);
    api.addSchema(DeliverySchema);
    registerEndpointRoutes(api, service);
    registerDeliveryRoutes(api, service);
  },
};

function registerEndpointRoutes(api: Api, service: WebhookService) {
  api.post(
    '/webhook-endpoints',
    {
      config: { tier: 'defense', permission: 'administer', problems: ['conflict'] },
      schema: {
        tags: TAGS,
        summary: 'Subscribe an endpoint to events',
        description:
          'Creates an endpoint that receives the chosen events as signed POSTs (Standard Webhooks: `webhook-id`, `webhook-timestamp`, ' +
          '`webhook-signature`). The body is `{"object": "event", "id", "type", "timestamp", "data"}`, with thin `data` (ids, statuses, counts: ' +
          'fetch details through the API). Delivery is at least once and unordered: de-duplicate on `webhook-id` (the event id) and order by ' +
          '`timestamp`. The answer holds the signing `secret`, shown this once. Needs an admin key or the admin role. Subscribing the same URL to ' +
          'the same events again (an automation platform retrying its subscribe) answers 409 `conflict` with the existing `endpoint_id`, rather than ' +
          'a second endpoint that would double every delivery.',
        body: CreateEndpointBody,
        response: { 201: EndpointWithSecretSchema },
      },
    },
    async (request, reply) => {
      const { record, secret } = await service.create(auditContextOf(request), request.body);
      return reply
        .code(201)
        .header('location', `/api/v1/webhook-endpoints/${record.id}`)
        .send({ ...presentEndpoint(record), secret });
    },
  );

  api.get(
    '/webhook-endpoints',
    {
      config: { tier: 'defense', permission: 'administer' },
      schema: { tags: TAGS, summary: "List the organization's webhook endpoints", querystring: ListQuery, response: { 200: EndpointListSchema } },
    },
    async (request) => {
      const limit = request.query.limit ?? 20;
      const after = pageStartsAfter(request.query, 'the endpoint list');
      const rows = await service.list(auditContextOf(request), { limit: limit + 1, ...(after && { after }) });
      return cursorPage(rows, limit, presentEndpoint, (row) => ({ i: row.id }));
    },
  );

  api.get(
    '/webhook-endpoints/:id',
    {
      config: { tier: 'defense', permission: 'administer' },
      schema: {
        tags: TAGS,
        summary: 'Get a webhook endpoint',
        description: 'Never its secret.',
        params: EndpointIdParams,
        response: { 200: Type.Ref('WebhookEndpoint') },
      },
    },
    async (request) => presentEndpoint(await service.get(auditContextOf(request), request.params.id)),
  );

  api.patch(
    '/webhook-endpoints/:id',
    {
      config: { tier: 'defense', permission: 'administer' },
      schema: {
        tags: TAGS,
        summary: 'Change a webhook endpoint',
        description:
          'Changes its `url` (checked as at creation), `events`, `description`, or `enabled`. Disabling cancels its pending deliveries; ' +
          're-enabling one disabled by its receiver (410) or by five days of failures resumes deliveries for new events.',
        params: EndpointIdParams,
        body: UpdateEndpointBody,
        response: { 200: Type.Ref('WebhookEndpoint') },
      },
    },
    async (request) => presentEndpoint(await service.update(auditContextOf(request), request.params.id, request.body)),
  );

  api.delete(
    '/webhook-endpoints/:id',
    {
      config: { tier: 'defense', permission: 'administer' },
      schema: {
        tags: TAGS,
        summary: 'Delete a webhook endpoint',
        description: 'Unsubscribes it: no further deliveries, and its delivery history goes with it (the audit trail keeps the deletion).',
        params: EndpointIdParams,
        response: { 200: DeletedEndpointSchema },
      },
    },
    async (request) => {
      await service.remove(auditContextOf(request), request.params.id);
      return { object: 'webhook_endpoint' as const, id: request.params.id, deleted: true as const };
    },
  );

  api.post(
    '/webhook-endpoints/:id/rotate-secret',
    {
      config: { tier: 'defense', permission: 'administer' },
      schema: {
        tags: TAGS,
        summary: "Rotate an endpoint's signing secret",
        description:
          'A new secret, shown in this answer only. For 24 hours (`previous_secret_expires_at`) every delivery carries two signatures, ' +
          'one per secret, so your receiver can switch without losing a message.',
        params: EndpointIdParams,
        response: { 200: EndpointWithSecretSchema },
      },
    },
    async (request) => {
      const { record, secret } = await service.rotateSecret(auditContextOf(request), request.params.id);
      return { ...presentEndpoint(record), secret };
    },
  );
}

function registerDeliveryRoutes(api: Api, service: WebhookService) {
  api.post(
    '/webhook-endpoints/:id/test',
    {
      config: { tier: 'defense', permission: 'administer', problems: ['conflict'] },
      schema: {
        tags: TAGS,
        summary: 'Send a test event to an endpoint',
        description:
          'Records a `webhook.test` event (`data: {"endpoint_id"}`) and queues it to this endpoint only, signed like every delivery. ' +
          "Answers 202 with the queued delivery; its attempts appear under the endpoint's deliveries. A disabled endpoint answers 409.",
        params: EndpointIdParams,
        response: { 202: Type.Ref('WebhookDelivery') },
      },
    },
    async (request, reply) => reply.code(202).send(presentDelivery(await service.sendTest(auditContextOf(request), request.params.id))),
  );

  api.get(
    '/webhook-endpoints/:id/deliveries',
    {
      config: { tier: 'defense', permission: 'administer' },
      schema: {
        tags: TAGS,
        summary: "List an endpoint's deliveries",
        description: 'Newest event first, each with every attempt: outcome, status, latency and the first KiB of the answer. Filter with `state`.',
        params: EndpointIdParams,
        querystring: DeliveryListQuery,
        response: { 200: DeliveryListSchema },
      },
    },
    async (request) => {
      const { limit = 20, state } = request.query;
      const after = pageStartsAfter(request.query, 'the delivery list');
      const rows = await service.deliveries(auditContextOf(request), request.params.id, { limit: limit + 1, ...(after && { after }), ...(state && { state }) });
      return cursorPage(rows, limit, presentDelivery, (row) => ({ i: row.event_id }));
    },
  );

  api.post(
    '/webhook-endpoints/:id/deliveries/:event_id/redeliver',
    {
      config: { tier: 'defense', permission: 'administer', problems: ['conflict'] },
      schema: {
        tags: TAGS,
        summary: 'Redeliver an event to an endpoint',
        description:
          'Queues the event again for this endpoint, for a new round of retries, with the same `webhook-id` (its event id) so your receiver ' +
          'can de-duplicate. Any event of your organization may be sent, also one the endpoint never received. A disabled endpoint answers 409.',
        params: DeliveryParams,
        response: { 202: Type.Ref('WebhookDelivery') },
      },
    },
    async (request, reply) =>
      reply.code(202).send(presentDelivery(await service.redeliver(auditContextOf(request), request.params.id, request.params.event_id))),
  );
}

export default webhooks;
