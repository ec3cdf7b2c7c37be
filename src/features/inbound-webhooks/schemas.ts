/**
 * The inbound webhook endpoints' shapes.
 */
import { Type } from 'typebox';
import { idPageQueryFields, NextCursor } from '../../http/id-page.ts';
import { REPLACED_KEY } from '../../webhooks/key-path-segment.ts';
import { KEY_PATH_DEPTH, MAX_KEY_PATHS } from '../../webhooks/payload-keys.ts';

/** Which member names are kept in key paths and how (src/webhooks/key-path-segment.ts), for the route descriptions. */
export const KEY_NAMES_RULE =
  'Only member names that look like field names are kept: dot-separated identifiers (`^[A-Za-z_][A-Za-z0-9_-]{0,63}$`), ' +
  `64 characters at most, fewer than 7 digits. Any other name (an email address, a name with spaces, a phone number) is written \`${REPLACED_KEY}\`, ` +
  `so \`{"attendees": {"jane.doe@example.com": {"status": "in"}}}\` is kept as \`attendees\`, \`attendees.${REPLACED_KEY}\`, \`attendees.${REPLACED_KEY}.status\`. ` +
  'A dot inside a kept name is written `\\.` (`{"com.acme.site": 1}` is `com\\.acme\\.site`), so `.` always separates levels.';

/** store.ts's INBOUND_KINDS, spelled out so that TypeBox infers the literal types. */
const KindSchema = Type.Union([
  Type.Literal('screening_completed'),
  Type.Literal('visitor_checked_in'),
  Type.Literal('visitor_checked_out'),
  Type.Literal('session_escalated'),
]);

/** Any JSON object: its content is not kept, so there is nothing to refuse but its shape. */
export const InboundPayload = Type.Object(
  {},
  {
    additionalProperties: Type.Unknown({ description: 'Any JSON value. Only its key (and nested keys) is kept, never the value.' }),
    description: `A JSON object, as your system sends it. Gatehouse keeps its key paths (e.g. \`visitor.documents[].type\`, at most ${KEY_PATH_DEPTH} levels deep and ${MAX_KEY_PATHS} paths) and no value.`,
    examples: [{ session_id: 'ses_01jbz4r2c8n5p7q9s1t3v5w7xy', visitor: { name: 'Jane Roe', badge: 'V-1042' }, checked_in_at: '2026-11-20T09:31:12Z' }],
  },
);

export const AcknowledgementSchema = Type.Object(
  {
    received: Type.Literal(true),
    id: Type.String({ description: 'The receipt id, `iwh_…` (for a replayed webhook-id: the first receipt).' }),
    duplicate: Type.Boolean({ description: 'True when this webhook-id was received before: acknowledged, not recorded again.' }),
  },
  { examples: [{ received: true, id: 'iwh_01jbz4r2c8n5p7q9s1t3v5w7xy', duplicate: false }] },
);

export const ReceiptSchema = Type.Object(
  {
    object: Type.Literal('inbound_webhook'),
    id: Type.String(),
    kind: KindSchema,
    key_paths: Type.Array(Type.String(), {
      description: `The payload's keys, nested ones as \`a.b\` and inside arrays as \`a[].b\`; never a value. ${KEY_NAMES_RULE}`,
      examples: [['attendees', 'attendees.<key>', 'attendees.<key>.status', 'com\\.acme\\.site', 'session_id']],
    }),
    key_paths_truncated: Type.Boolean({ description: 'Deeper or further keys were left out.' }),
    signed: Type.Boolean({ description: 'It carried a valid signature under your inbound secret.' }),
    request_id: Type.String(),
    received_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'InboundWebhook' },
);

export const ReceiptListQuery = Type.Object(
  {
    kind: Type.Optional(KindSchema),
    ...idPageQueryFields('receipt', '^iwh_[0-9a-z]{26}$'),
  },
  { additionalProperties: false },
);

export const ReceiptListSchema = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(Type.Ref('InboundWebhook')),
  has_more: Type.Boolean(),
  next_cursor: NextCursor,
});

const NullableDateTime = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const SecretStateSchema = Type.Object(
  {
    object: Type.Literal('inbound_webhook_secret'),
    created_at: Type.String({ format: 'date-time' }),
    rotated_at: NullableDateTime,
    previous_secret_expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'After a rotation, until when signatures made with the previous secret are still accepted.',
    }),
  },
  { $id: 'InboundWebhookSecret' },
);

export const SecretShownSchema = Type.Object(
  {
    ...SecretStateSchema.properties,
    secret: Type.String({ description: 'The secret, `whsec_` + base64: shown in this answer only. Sign inbound webhooks with it (Standard Webhooks).' }),
  },
  {
    examples: [
      {
        object: 'inbound_webhook_secret',
        created_at: '2026-11-20T09:30:00.000Z',
        rotated_at: null,
        previous_secret_expires_at: null,
        secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      },
    ],
  },
);
