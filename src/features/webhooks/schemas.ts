/**
 * The webhook endpoint API's shapes: one schema validates, serializes and documents each.
 */
import { Type } from 'typebox';
import { EVENT_TYPE_DESCRIPTIONS, EVENT_TYPES } from '../../events/event-types.ts';
import { idPageQueryFields, NextCursor } from '../../http/id-page.ts';
import { RETRY_SCHEDULE_SECONDS } from '../../webhooks/retry-schedule.ts';

const ENDPOINT_ID = '^we_[0-9a-z]{26}$';
const EVENT_ID = '^evt_[0-9a-z]{26}$';
const EXAMPLE_ENDPOINT_ID = 'we_01jbz4q7m3k8d2r6t0v5x9y1ab';
const EXAMPLE_EVENT_ID = 'evt_01jbz4r2c8n5p7q9s1t3v5w7xy';

export const EndpointIdParams = Type.Object({ id: Type.String({ pattern: ENDPOINT_ID, description: 'The endpoint id, `we_…`.' }) });
export const DeliveryParams = Type.Object({
  id: Type.String({ pattern: ENDPOINT_ID, description: 'The endpoint id, `we_…`.' }),
  event_id: Type.String({ pattern: EVENT_ID, description: 'The event id, `evt_…`: also the `webhook-id` of its deliveries.' }),
});

const eventTypesText = EVENT_TYPES.map((type) => `\`${type}\`: ${EVENT_TYPE_DESCRIPTIONS[type]}`).join('\n- ');

const Url = Type.String({
  minLength: 10,
  maxLength: 2048,
  description:
    'Where events are POSTed: an https URL whose host resolves to public addresses only (checked now and before every delivery). ' +
    'Plain http, loopback, private, link-local and reserved addresses are refused unless the operator allow-listed the host (WEBHOOK_ALLOWED_HOSTS).',
  examples: ['https://hooks.example.com/gatehouse'],
});
const Events = Type.Array(Type.Union(EVENT_TYPES.map((type) => Type.Literal(type))), {
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  uniqueItems: true,
  description: `The event types to receive:\n- ${eventTypesText}`,
  examples: [['screening.completed', 'case.disposition_applied']],
});
const Description = Type.String({ maxLength: 500, description: 'What the endpoint is for, for your colleagues.' });

export const CreateEndpointBody = Type.Object(
  { url: Url, events: Events, description: Type.Optional(Description) },
  {
    additionalProperties: false,
    examples: [{ url: 'https://hooks.zapier.com/hooks/catch/123456/abcdef/', events: ['screening.completed'], description: 'Zapier: alert the security desk' }],
  },
);

export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Events),
    description: Type.Optional(Type.Union([Description, Type.Null()])),
    enabled: Type.Optional(
      Type.Boolean({ description: '`false` stops deliveries (pending ones are cancelled); `true` resumes them for new events and clears the failing streak.' }),
    ),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ enabled: true }, { events: ['screening.completed', 'lists.updated'] }] },
);

const DateTime = Type.String({ format: 'date-time' });
const NullableDateTime = Type.Union([DateTime, Type.Null()]);

export const EndpointSchema = Type.Object(
  {
    object: Type.Literal('webhook_endpoint'),
    id: Type.String({ examples: [EXAMPLE_ENDPOINT_ID] }),
    url: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    events: Type.Array(Type.String()),
    enabled: Type.Boolean(),
    disabled_reason: Type.Union([Type.Literal('manual'), Type.Literal('gone'), Type.Literal('failing'), Type.Null()], {
      description: '`manual`: disabled through this API; `gone`: the receiver answered 410; `failing`: every attempt failed for five days.',
    }),
    disabled_at: NullableDateTime,
    failing_since: Type.Union([DateTime, Type.Null()], { description: 'Since when every attempt has failed; null after a success.' }),
    previous_secret_expires_at: Type.Union([DateTime, Type.Null()], {
      description: 'After a rotation, until when the previous secret still signs (beside the new one).',
    }),
    created_at: DateTime,
    updated_at: DateTime,
  },
  {
    $id: 'WebhookEndpoint',
    examples: [
      {
        object: 'webhook_endpoint',
        id: EXAMPLE_ENDPOINT_ID,
        url: 'https://hooks.example.com/gatehouse',
        description: 'security desk',
        events: ['screening.completed', 'visitor.checked_in'],
        enabled: false,
        disabled_reason: 'gone',
        disabled_at: '2026-11-21T14:02:09.000Z',
        failing_since: '2026-11-21T14:02:09.000Z',
        previous_secret_expires_at: null,
        created_at: '2026-11-20T09:30:00.000Z',
        updated_at: '2026-11-21T14:02:09.000Z',
      },
    ],
  },
);

export const EndpointWithSecretSchema = Type.Object(
  {
    ...EndpointSchema.properties,
    secret: Type.String({
      description:
        'The signing secret, `whsec_` + base64. Shown in this answer only: store it now. Verify each delivery with it ' +
        '(Standard Webhooks: `webhook-signature` is `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded part after `whsec_`).',
      examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    }),
  },
  {
    examples: [
      {
        object: 'webhook_endpoint',
        id: EXAMPLE_ENDPOINT_ID,
        url: 'https://hooks.example.com/gatehouse',
        description: null,
        events: ['screening.completed'],
        enabled: true,
        disabled_reason: null,
        disabled_at: null,
        failing_since: null,
        previous_secret_expires_at: null,
        created_at: '2026-11-20T09:30:00.000Z',
        updated_at: '2026-11-20T09:30:00.000Z',
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      },
    ],
  },
);

export const DeletedEndpointSchema = Type.Object({ object: Type.Literal('webhook_endpoint'), id: Type.String(), deleted: Type.Literal(true) });

export const ListQuery = Type.Object(
  {
    ...idPageQueryFields('endpoint', ENDPOINT_ID),
  },
  { additionalProperties: false },
);

export const EndpointListSchema = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(Type.Ref('WebhookEndpoint')),
  has_more: Type.Boolean(),
  next_cursor: NextCursor,
});

const retryDelays = RETRY_SCHEDULE_SECONDS.slice(1).map((s) => (s < 60 ? `${s} s` : s < 3600 ? `${s / 60} min` : `${s / 3600} h`));

const DeliveryState = Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed'), Type.Literal('cancelled')], {
  description: `\`pending\` until a 2xx (\`succeeded\`) or the retry schedule is spent (\`failed\`): the first attempt at once, then ${retryDelays.length} more, ${retryDelays.join(', ')} after each failure (±10 %, never sooner than a \`Retry-After\`). \`cancelled\`: the endpoint was disabled.`,
});

const AttemptSchema = Type.Object({
  number: Type.Integer({ minimum: 1 }),
  attempted_at: DateTime,
  outcome: Type.Union(
    [Type.Literal('succeeded'), Type.Literal('http_error'), Type.Literal('timeout'), Type.Literal('network_error'), Type.Literal('refused')],
    {
      description: '`refused`: the URL resolved to an address webhooks may not reach, so nothing was sent.',
    },
  ),
  status: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's HTTP status." }),
  latency_ms: Type.Integer({ minimum: 0 }),
  response_body: Type.Union([Type.String(), Type.Null()], { description: "The first 1,024 characters of the receiver's answer." }),
  error: Type.Union([Type.String(), Type.Null()]),
});

export const DeliverySchema = Type.Object(
  {
    object: Type.Literal('webhook_delivery'),
    endpoint_id: Type.String(),
    event_id: Type.String({ description: 'Also the `webhook-id` header of every attempt.', examples: [EXAMPLE_EVENT_ID] }),
    event_type: Type.String(),
    state: DeliveryState,
    attempts: Type.Integer({ minimum: 0 }),
    next_attempt_at: Type.Union([DateTime, Type.Null()], { description: 'While pending: when the next attempt is due.' }),
    created_at: DateTime,
    updated_at: DateTime,
    history: Type.Array(AttemptSchema, { description: 'Every attempt, oldest first.' }),
  },
  {
    $id: 'WebhookDelivery',
    examples: [
      {
        object: 'webhook_delivery',
        endpoint_id: EXAMPLE_ENDPOINT_ID,
        event_id: EXAMPLE_EVENT_ID,
        event_type: 'screening.completed',
        state: 'pending',
        attempts: 1,
        next_attempt_at: '2026-11-20T09:31:17.412Z',
        created_at: '2026-11-20T09:31:12.204Z',
        updated_at: '2026-11-20T09:31:12.530Z',
        history: [
          {
            number: 1,
            attempted_at: '2026-11-20T09:31:12.301Z',
            outcome: 'http_error',
            status: 503,
            latency_ms: 212,
            response_body: 'upstream unavailable',
            error: null,
          },
        ],
      },
    ],
  },
);

export const DeliveryListQuery = Type.Object(
  {
    ...idPageQueryFields('delivery (its event id)', EVENT_ID),
    state: Type.Optional(DeliveryState),
  },
  { additionalProperties: false },
);

export const DeliveryListSchema = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(Type.Ref('WebhookDelivery')),
  has_more: Type.Boolean(),
  next_cursor: NextCursor,
});
