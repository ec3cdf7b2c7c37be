/**
 * The OpenAPI 3.1 description, generated from the same TypeBox schemas that validate requests
 * and serialize responses, so it cannot drift from what the server does.
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { installDeclaredProblems } from './openapi/error-responses.ts';
import { finishDocument } from './openapi/finish-document.ts';
import { permissionTable } from './permissions.ts';

export const API_DESCRIPTION = `
Gatehouse screens visitors, subjects, workforce and vendors against restricted-party lists,
checks visitors in and out, queues potential matches for adjudication, and keeps a
tamper-evident audit trail. Every endpoint is under \`/api/v1\`.

**Errors.** Every error is RFC 9457 \`application/problem+json\` with a stable \`code\`, the
\`request_id\`, and for validation failures \`errors: [{pointer, detail, in}]\` listing every
invalid value as a JSON Pointer (the first 100; \`errors_truncated: true\` says there are more). Bodies must be \`application/json\` in UTF-8 (another type or
charset answers 415); unknown fields are refused, not ignored, and a \`__proto__\` member is a
validation error; bodies over the size limit answer 413; a known path with the wrong method
answers 405 with an \`Allow\` header. A request the HTTP parser cannot read answers 400
\`bad_request\`, one whose request line and headers pass 16 KiB 431 \`headers_too_large\`, and
one that does not arrive in time 408 \`request_timeout\`, each as problem+json on a closed connection. A 5xx says nothing about our internals: quote
its \`request_id\` to support.

**Authentication and tiers.** Every \`/api/v1\` endpoint but this description needs
\`Authorization: Bearer <credential>\`: missing or unknown answers 401 \`unauthenticated\` with
\`WWW-Authenticate: Bearer\`; a disabled key 401 \`key_disabled\`; a revoked key 401
\`key_revoked\`; a suspended organization 403 \`organization_suspended\`. Each endpoint is labelled
\`x-tier\`: Defense endpoints serve every organization, Enterprise endpoints answer a
Defense-tier organization 403 \`tier_required\` with \`required_tier\`. Each endpoint is also
labelled \`x-permission\` (the kind of operation) and \`x-allowed\` (who may call it), and its
description ends with the same; a caller the matrix below does not allow answers 403
\`role_required\` naming who may. Another organization's ids answer 404, exactly as ids that do not exist.

${permissionTable()}

**Pagination.** Every list answers \`{"object": "list", "data", "has_more", "next_cursor"}\` and takes
\`limit\` and \`cursor\`: pass the \`next_cursor\` of one page as \`cursor\` for the next, with the same
filters, until \`has_more\` is false (\`next_cursor\` is then null). Cursors are opaque; one that a list
did not produce answers 400 naming \`cursor\`. *Migrating:* \`starting_after\` (API keys, webhook
endpoints and their deliveries, inbound webhooks) and \`after\` (events) still work and are marked
deprecated; replace them with \`cursor\`.

**Rate limits.** Each credential has a token bucket: by default 50 requests a second for Defense
and 200 for Enterprise, in bursts of twice that. An organization may have its own rate. Every
authenticated answer carries \`RateLimit-Policy\` and \`RateLimit\`
(draft-ietf-httpapi-ratelimit-headers). Past the limit the answer is 429 \`rate_limited\` with
\`Retry-After\`. Repeated failed authentications from one address are limited the same way.

**Correlation.** Send \`X-Request-ID\` (at most 128 characters of \`[A-Za-z0-9._:-]\`) and it is
echoed on the response, written in our logs and in audit records; anything else is replaced by
an id we generate, which is echoed the same way.

**Idempotency.** Writes that say so accept an \`Idempotency-Key\` header (1–255 characters):
the first response is kept for 24 hours and returned for a retry with the same key and the same
request; the same key with a different request answers 409 \`idempotency_key_reused\`, and one
still in progress answers 409 \`idempotency_key_in_progress\` with \`Retry-After\`: the \`code\`
tells them apart.
`.trim();

export async function installOpenApi(app: FastifyInstance, version: string) {
  installDeclaredProblems(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Gatehouse API',
        version,
        description: API_DESCRIPTION,
        // The project's own domain, as the problem types' (problem.ts).
        contact: { name: 'Gatehouse support', url: 'https://gatehouse.dev/support', email: 'support@gatehouse.dev' },
        license: { name: 'Proprietary', url: 'https://gatehouse.dev/terms' },
      },
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An API key (`gk_live_…`, or `gk_test_…` for the sandbox) for server-to-server calls, or a JWT ' +
              'for interactive admin flows: `Authorization: Bearer <credential>`.',
          },
        },
      },
    },
    // Name shared schemas after their $id (`Problem`) instead of `def-0`.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (document) => finishDocument('openapiObject' in document ? document.openapiObject : document.swaggerObject),
  });
}
