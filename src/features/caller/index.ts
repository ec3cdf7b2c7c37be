/**
 * GET /me: who the caller is, as the service sees it: the organization and its tier, the
 * credential (an API key's id, environment and scope, or a person's identity and role), what it
 * may do under the permission matrix, and its request rate. What an integration checks once when
 * it is connected ("test the connection"), and what a support engineer asks for first.
 */
import { Type } from 'typebox';
import type { RequestActor } from '../../http/actor.ts';
import { AppError } from '../../http/errors.ts';
import type { Feature } from '../../http/feature.ts';
import { mayCall, PERMISSIONS, type Permission, principalOf } from '../../http/permissions.ts';

const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

const CallerSchema = Type.Object(
  {
    object: Type.Literal('caller'),
    organization: Type.Object({
      id: Type.String(),
      name: Type.String(),
      tier: Type.Union([Type.Literal('defense'), Type.Literal('enterprise')], {
        description: 'Defense endpoints serve every organization; Enterprise endpoints, Enterprise organizations.',
      }),
    }),
    credential: Type.Object({
      kind: Type.Union([Type.Literal('api_key'), Type.Literal('user')], { description: '`api_key`, or `user` for a person’s JWT.' }),
      id: Type.String({ description: 'The key id (`key_…`), or the person’s identity (the JWT subject, their email).' }),
      principal: Type.String({ description: 'The kind of caller the permission matrix knows: admin, adjudicator, viewer, admin_key or standard_key.' }),
      environment: Type.Optional(Type.Union([Type.Literal('live'), Type.Literal('test')], { description: 'For API keys: live, or test (sandbox).' })),
      role: Type.Optional(Type.Union([Type.Literal('admin'), Type.Literal('adjudicator'), Type.Literal('viewer')], { description: 'For people: their role.' })),
      expires_at: Type.Optional(Type.String({ format: 'date-time', description: 'For people: when the token expires.' })),
    }),
    permissions: Type.Array(Type.String(), {
      description: `What this caller may do: some of ${PERMISSION_NAMES.map((p) => `\`${p}\``).join(', ')} (the matrix is in this description's introduction).`,
    }),
    rate_limit_per_second: Type.Union([Type.Integer(), Type.Null()], {
      description: "The organization's own request rate per credential, or null for its tier's.",
    }),
  },
  {
    examples: [
      {
        object: 'caller',
        organization: { id: 'org_01jbz4r2c5y7a9c1e3g5j7l9nq', name: 'Northgate Defense', tier: 'enterprise' },
        credential: { kind: 'api_key', id: 'key_01jbz4r2c5y7a9c1e3g5j7l9np', principal: 'standard_key', environment: 'live' },
        permissions: ['read', 'operate', 'decide'],
        rate_limit_per_second: null,
      },
    ],
  },
);

const caller: Feature = {
  name: 'caller',
  async register(api, { db }) {
    api.get(
      '/me',
      {
        config: { tier: 'defense', permission: 'read' },
        schema: {
          tags: ['authentication'],
          summary: 'Who is calling: organization, credential and permissions',
          description: 'Answers for any valid credential. Use it to test a connection: a 200 means the credential works, and says what it may do.',
          response: { 200: CallerSchema },
        },
      },
      async (request) => {
        const actor = request.actor as RequestActor;
        // Read as the caller, under row-level security: a request never needs the owner's connection.
        const organization = await db.withTenant(actor, (trx) => trx.selectFrom('organizations').select(['id', 'name']).executeTakeFirst());
        if (!organization) throw new AppError('not_found', 'Your organization no longer exists.');
        const principal = principalOf(actor);
        return {
          object: 'caller' as const,
          organization: { id: organization.id, name: organization.name, tier: actor.tier },
          credential: {
            kind: actor.kind,
            id: actor.id,
            principal,
            ...(actor.environment && { environment: actor.environment }),
            ...(actor.role && { role: actor.role }),
            ...(actor.token && { expires_at: actor.token.expiresAt.toISOString() }),
          },
          permissions: PERMISSION_NAMES.filter((permission) => mayCall(principal, permission)),
          rate_limit_per_second: actor.rateLimitPerSecond ?? null,
        };
      },
    );
  },
};

export default caller;
