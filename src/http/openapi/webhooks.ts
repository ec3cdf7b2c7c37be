/**
 * The document's `webhooks`: one operation per event type, the body Gatehouse POSTs to a
 * subscribed endpoint (the same envelope `GET /api/v1/events` lists), typed by the event's own
 * payload, with the Standard Webhooks headers that sign it.
 */
import { EVENT_PAYLOADS } from '../../events/event-payloads.ts';
import { EVENT_TYPE_DESCRIPTIONS, type EventType, TEST_EVENT_TYPE } from '../../events/event-types.ts';
import { operationIdFor } from './operation-ids.ts';

const SIGNATURE_HEADERS = [
  { name: 'webhook-id', description: 'The event id, the same for every attempt: de-duplicate by it.', example: 'evt_01jbz4r2c8n5p7q9s1t3v5w7xy' },
  {
    name: 'webhook-timestamp',
    description: 'Seconds since the epoch when this attempt was signed; refuse one too far from your clock.',
    example: '1795685472',
  },
  {
    name: 'webhook-signature',
    description: '`v1,` and the base64 HMAC-SHA256, under the endpoint’s secret, of `{webhook-id}.{webhook-timestamp}.{body}` (Standard Webhooks).',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
];

const TEST_DESCRIPTION = 'Sent only by `POST /api/v1/webhook-endpoints/{id}/test`, to that endpoint: `endpoint_id`.';

export function webhooksObject() {
  const types = [...(Object.keys(EVENT_TYPE_DESCRIPTIONS) as EventType[]), TEST_EVENT_TYPE] as const;
  return Object.fromEntries(
    types.map((type) => {
      const payload = EVENT_PAYLOADS[type];
      const example = {
        object: 'event',
        id: 'evt_01jbz4r2c8n5p7q9s1t3v5w7xy',
        type,
        timestamp: '2026-11-20T09:31:12.204Z',
        data: (payload as { examples?: unknown[] }).examples?.[0],
      };
      return [
        type,
        {
          post: {
            operationId: operationIdFor('on', type),
            tags: ['webhooks'],
            summary: `The \`${type}\` event`,
            description: type === TEST_EVENT_TYPE ? TEST_DESCRIPTION : EVENT_TYPE_DESCRIPTIONS[type as EventType],
            security: [],
            parameters: SIGNATURE_HEADERS.map(({ name, description, example }) => ({
              name,
              in: 'header',
              required: true,
              description,
              schema: { type: 'string' },
              example,
            })),
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['object', 'id', 'type', 'timestamp', 'data'],
                    properties: {
                      object: { const: 'event' },
                      id: { type: 'string', description: 'The event id; also `webhook-id`.' },
                      type: { const: type },
                      timestamp: { type: 'string', format: 'date-time', description: 'When it happened.' },
                      data: payload,
                    },
                  },
                  example,
                },
              },
            },
            responses: {
              '200': {
                description:
                  'Any 2xx acknowledges the delivery. Anything else, or no answer in time, is retried with growing waits; 410 Gone disables the endpoint.',
              },
            },
          },
        },
      ];
    }),
  );
}
