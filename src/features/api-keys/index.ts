/**
 * API key management for an organization's administrators: create (the key is shown once),
 * list, disable, enable, revoke. Another organization's key ids answer 404.
 */
import { createApiKeyService, type StateChange } from '../../auth/api-key-service.ts';
import { presentKey } from '../../auth/api-key-view.ts';
import { auditContextOf } from '../../http/audit-context.ts';
import type { Feature } from '../../http/feature.ts';
import { pageStartsAfter } from '../../http/id-page.ts';
import { cursorPage } from '../../http/list-page.ts';
import { ApiKeySchema, CreatedKeySchema, CreateKeyBody, KeyIdParams, KeyListSchema, ListQuery } from './schemas.ts';

const apiKeys: Feature = {
  name: 'api-keys',
  async register(api, { db }) {
    const service = createApiKeyService(db.withTenant);
    api.addSchema(ApiKeySchema);
    // onRequest, after authentication: a non-admin is refused before their body is even read.

    api.post(
      '/api-keys',
      {
        // Not idempotent: a replay would need the answer stored, and the answer holds the key, which is only ever kept hashed.
        config: { tier: 'defense', permission: 'administer' },
        schema: {
          tags: ['api keys'],
          summary: 'Create an API key',
          description: 'Needs an admin key or the admin role. The full key is in this answer only; Gatehouse keeps a hash.',
          body: CreateKeyBody,
          response: { 201: CreatedKeySchema },
        },
      },
      async (request, reply) => {
        // A sandbox key makes sandbox keys unless told otherwise: trying the API must not mint live credentials by accident.
        const { name, environment = request.actor?.environment ?? 'live', admin = false } = request.body;
        const { record, key } = await service.create(auditContextOf(request), { name, environment, admin });
        return reply
          .code(201)
          .header('location', `/api/v1/api-keys/${record.id}`)
          .send({ ...presentKey(record), key });
      },
    );

    api.get(
      '/api-keys',
      {
        config: { tier: 'defense', permission: 'administer' },
        schema: { tags: ['api keys'], summary: "List the organization's API keys", querystring: ListQuery, response: { 200: KeyListSchema } },
      },
      async (request) => {
        const limit = request.query.limit ?? 20;
        const after = pageStartsAfter(request.query, 'the key list');
        const rows = await service.list(auditContextOf(request), { limit: limit + 1, ...(after && { after }) });
        return cursorPage(rows, limit, presentKey, (row) => ({ i: row.id }));
      },
    );

    api.get(
      '/api-keys/:id',
      {
        config: { tier: 'defense', permission: 'administer' },
        schema: { tags: ['api keys'], summary: 'Get an API key', params: KeyIdParams, response: { 200: ApiKeySchema } },
      },
      async (request) => presentKey(await service.get(auditContextOf(request), request.params.id)),
    );

    const changes: { change: StateChange; summary: string }[] = [
      { change: 'disable', summary: 'Disable an API key (reversible)' },
      { change: 'enable', summary: 'Enable a disabled API key' },
      { change: 'revoke', summary: 'Revoke an API key (final)' },
    ];
    for (const { change, summary } of changes) {
      api.post(
        `/api-keys/:id/${change}`,
        {
          config: { tier: 'defense', permission: 'administer', problems: ['conflict'] },
          schema: { tags: ['api keys'], summary, params: KeyIdParams, response: { 200: ApiKeySchema } },
        },
        async (request) => presentKey(await service.change(auditContextOf(request), request.params.id, change)),
      );
    }
  },
};

export default apiKeys;
