/**
 * The four inbound webhook receivers of the interface spec (Defense tier), the organization's
 * optional inbound signing secret (admin only), and the receipts, which hold key paths only.
 * Bodies here are read as text first: the signature covers the exact bytes sent.
 */
import { Type } from 'typebox';
import { auditContextOf } from '../../http/audit-context.ts';
import { AppError } from '../../http/errors.ts';
import type { Api, Feature } from '../../http/feature.ts';
import { pageStartsAfter } from '../../http/id-page.ts';
import { requireUtf8 } from '../../http/json-body.ts';
import { cursorPage } from '../../http/list-page.ts';
import { loadSecretBox } from '../../webhooks/secret-box-keys.ts';
import { SIGNATURE_HEADERS } from '../../webhooks/standard-webhooks.ts';
import {
  AcknowledgementSchema,
  InboundPayload,
  KEY_NAMES_RULE,
  ReceiptListQuery,
  ReceiptListSchema,
  ReceiptSchema,
  SecretShownSchema,
  SecretStateSchema,
} from './schemas.ts';
import { createInboundWebhookService, type InboundWebhookService } from './service.ts';
import { INBOUND_KINDS, type Receipt, type SecretState } from './store.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body as sent, for signature verification (inbound webhooks only). */
    rawBody?: string;
  }
}

const TAGS = ['inbound webhooks'];
const KIND_SUMMARIES: Record<(typeof INBOUND_KINDS)[number], string> = {
  screening_completed: 'Receive a screening-completed event',
  visitor_checked_in: 'Receive a visitor check-in event',
  visitor_checked_out: 'Receive a visitor check-out event',
  session_escalated: 'Receive a session escalation event',
};

export function createInboundWebhooksFeature(options: { clock?: () => Date } = {}): Feature {
  return {
    name: 'inbound-webhooks',
    async register(api, { config, db }) {
      const service = createInboundWebhookService({
        withTenant: db.withTenant,
        secrets: await loadSecretBox(config.webhooks.secretsKeys, db.operator),
        ...(options.clock && { clock: options.clock }),
      });
      // Keep the text the signature covers; refuse what is not JSON without repeating any of it
      // (the service's own parser quotes the parser's message, which may quote the payload).
      // A `__proto__` member is kept as a name like any other: nothing here copies the payload.
      api.removeContentTypeParser('application/json');
      api.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
        request.rawBody = body as string;
        try {
          requireUtf8(request.headers['content-type']);
        } catch (error) {
          return done(error as AppError, undefined);
        }
        try {
          done(null, JSON.parse(body as string));
        } catch {
          done(new AppError('malformed_json', 'The body is not valid JSON.'), undefined);
        }
      });
      api.addSchema(ReceiptSchema);
      api.addSchema(SecretStateSchema);
      registerReceivers(api, service);
      registerSecretRoutes(api, service);
    },
  };
}

function registerReceivers(api: Api, service: InboundWebhookService) {
  for (const kind of INBOUND_KINDS) {
    api.post(
      `/webhooks/${kind}`,
      {
        config: { tier: 'defense', permission: 'operate', problems: ['invalid_signature'] },
        schema: {
          tags: TAGS,
          summary: KIND_SUMMARIES[kind],
          description:
            `Acknowledges a \`${kind}\` event from your system with 200. As the interface spec requires, only the payload's keys are kept ` +
            `(and logged) with the kind, time, organization and request id: no value, so no personal data. ${KEY_NAMES_RULE} JSON only (415 otherwise). ` +
            'When your organization set an inbound secret, the request must carry a valid Standard Webhooks signature made with it ' +
            '(`webhook-id`, `webhook-timestamp` within 5 minutes, `webhook-signature`), else 401 `invalid_signature`; a `webhook-id` ' +
            'received before is acknowledged again and not recorded twice.',
          body: InboundPayload,
          response: { 200: AcknowledgementSchema },
        },
      },
      async (request) => {
        const header = (name: string) => {
          const value = request.headers[name];
          return typeof value === 'string' ? value : undefined;
        };
        const signed = { body: request.rawBody ?? '' } as { body: string; id?: string; timestamp?: string; signature?: string };
        for (const [field, name] of Object.entries(SIGNATURE_HEADERS) as [keyof typeof SIGNATURE_HEADERS, string][]) {
          const value = header(name);
          if (value !== undefined) signed[field] = value;
        }
        const { receipt, duplicate, paths, truncated } = await service.receive(auditContextOf(request), kind, request.body, signed);
        // The spec's rule: the payload's keys are logged, nothing else of it.
        request.log.info(
          { kind, receipt_id: receipt.id, organization_id: request.actor?.organizationId, key_paths: paths, key_paths_truncated: truncated, duplicate },
          'inbound webhook received',
        );
        return { received: true as const, id: receipt.id, duplicate };
      },
    );
  }

  api.get(
    '/inbound-webhooks',
    {
      config: { tier: 'defense', permission: 'read' },
      schema: {
        tags: TAGS,
        summary: 'List received inbound webhooks',
        description: `Newest first: everything Gatehouse kept of each, which is its kind, key paths, time and request id. ${KEY_NAMES_RULE}`,
        querystring: ReceiptListQuery,
        response: { 200: ReceiptListSchema },
      },
    },
    async (request) => {
      const { limit = 20, kind } = request.query;
      const after = pageStartsAfter(request.query, 'the receipt list');
      const rows = await service.receipts(auditContextOf(request), { limit: limit + 1, ...(after && { after }), ...(kind && { kind }) });
      return cursorPage(rows, limit, presentReceipt, (row) => ({ i: row.id }));
    },
  );
}

function registerSecretRoutes(api: Api, service: InboundWebhookService) {
  api.post(
    '/inbound-webhooks/secret',
    {
      config: { tier: 'defense', permission: 'administer' },
      schema: {
        tags: TAGS,
        summary: 'Set or rotate the inbound webhook secret',
        description:
          'From now on every inbound webhook must be signed with this secret (Standard Webhooks). The secret is in this answer only. ' +
          'Calling it again rotates: the previous secret is still accepted for 24 hours. 201 when set, 200 when rotated. Needs an admin key or the admin role.',
        response: { 200: SecretShownSchema, 201: SecretShownSchema },
      },
    },
    async (request, reply) => {
      const { secret, state, created } = await service.setSecret(auditContextOf(request));
      return reply.code(created ? 201 : 200).send({ ...presentSecretState(state), secret });
    },
  );

  api.get(
    '/inbound-webhooks/secret',
    {
      config: { tier: 'defense', permission: 'administer' },
      schema: {
        tags: TAGS,
        summary: 'Whether inbound webhooks must be signed',
        description: 'When the secret was set and rotated, never the secret. 404 when none is set (inbound webhooks are accepted unsigned).',
        response: { 200: Type.Ref('InboundWebhookSecret') },
      },
    },
    async (request) => presentSecretState(await service.secretState(auditContextOf(request))),
  );

  api.delete(
    '/inbound-webhooks/secret',
    {
      config: { tier: 'defense', permission: 'administer' },
      schema: {
        tags: TAGS,
        summary: 'Remove the inbound webhook secret',
        description: 'Inbound webhooks are accepted unsigned again. Audited.',
        response: { 200: Type.Object({ object: Type.Literal('inbound_webhook_secret'), deleted: Type.Literal(true) }) },
      },
    },
    async (request) => {
      await service.removeSecret(auditContextOf(request));
      return { object: 'inbound_webhook_secret' as const, deleted: true as const };
    },
  );
}

const presentReceipt = (receipt: Receipt) => ({ object: 'inbound_webhook' as const, ...receipt, received_at: receipt.received_at.toISOString() });

const presentSecretState = (state: SecretState) => ({
  object: 'inbound_webhook_secret' as const,
  created_at: state.created_at.toISOString(),
  rotated_at: state.rotated_at?.toISOString() ?? null,
  previous_secret_expires_at: state.previous_secret_expires_at?.toISOString() ?? null,
});

export default createInboundWebhooksFeature();
