import { Type } from 'typebox';
import { idPageQueryFields, NextCursor } from '../../http/id-page.ts';

export const KeyIdParams = Type.Object({ id: Type.String({ pattern: '^key_[0-9a-z]{26}$', description: 'The key id, `key_…`.' }) });

export const CreateKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, description: 'What the key is for, e.g. "badge kiosk lobby".' }),
    environment: Type.Optional(
      Type.Union([Type.Literal('live'), Type.Literal('test')], {
        description:
          '`test` makes a sandbox key (`gk_test_…`). Default: the environment of the key making the request (`test` from a sandbox key), or `live` for a person.',
        examples: ['live'],
      }),
    ),
    admin: Type.Optional(Type.Boolean({ description: "May manage the organization's keys. Default false." })),
  },
  { additionalProperties: false },
);

export const ApiKeySchema = Type.Object(
  {
    object: Type.Literal('api_key'),
    id: Type.String(),
    name: Type.String(),
    environment: Type.Union([Type.Literal('live'), Type.Literal('test')]),
    admin: Type.Boolean(),
    state: Type.Union([Type.Literal('active'), Type.Literal('disabled'), Type.Literal('revoked')]),
    display_prefix: Type.String({ description: 'The first characters of the key, to recognise it; the rest is never shown again.' }),
    created_by: Type.String(),
    created_at: Type.String({ format: 'date-time' }),
    state_changed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Kept to the minute.' }),
  },
  { $id: 'ApiKey' },
);

export const CreatedKeySchema = Type.Object({
  ...ApiKeySchema.properties,
  key: Type.String({ description: 'The full key. Shown this once only: store it in your secret manager now.' }),
});

export const ListQuery = Type.Object(
  {
    ...idPageQueryFields('key', '^key_[0-9a-z]{26}$'),
  },
  { additionalProperties: false },
);

export const KeyListSchema = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(Type.Ref('ApiKey')),
  has_more: Type.Boolean(),
  next_cursor: NextCursor,
});
