/**
 * The service's own description and metrics: /api/v1/openapi.json, /api/docs and /api/metrics.
 */

import type { Registry } from 'prom-client';
import { Type } from 'typebox';
import type { Api } from './feature.ts';
import { type OpenApiDocument, REFERENCE_PAGE_CSP, renderReferencePage } from './reference/reference-page.ts';

export async function registerOperationsRoutes(api: Api, metrics: Registry) {
  api.get(
    '/api/v1/openapi.json',
    {
      config: { public: true },
      schema: {
        tags: ['operations'],
        summary: 'This API described in OpenAPI 3.1',
        description: 'Public: needs no credential.',
        response: { 200: Type.Object({}, { additionalProperties: true, description: 'An OpenAPI 3.1 document.' }) },
      },
    },
    async () => api.swagger(),
  );

  let page: string | undefined; // routes are fixed once the server is ready
  api.get(
    '/api/docs',
    {
      schema: {
        tags: ['operations'],
        summary: 'A readable reference of this API',
        description: 'This description as one HTML page, served with a strict Content-Security-Policy and no script. Public: needs no credential.',
        response: { 200: { description: 'An HTML page.', content: { 'text/html': { schema: Type.String() } } } },
      },
    },
    async (_request, reply) => {
      page ??= renderReferencePage(api.swagger() as unknown as OpenApiDocument);
      return reply.type('text/html; charset=utf-8').header('content-security-policy', REFERENCE_PAGE_CSP).send(page);
    },
  );

  api.get(
    '/api/metrics',
    {
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics',
        description:
          'Request counts and latency histograms by route and status, process metrics, and how current the lists are: per list ' +
          '`gatehouse_list_age_seconds`, `gatehouse_list_last_success_timestamp_seconds`, `gatehouse_list_max_age_seconds` and `gatehouse_list_stale` (0 or 1), ' +
          'per source `gatehouse_list_source_consecutive_failures` and `gatehouse_list_source_last_success_timestamp_seconds`, computed when scraped.',
        response: { 200: { description: 'Prometheus text format.', content: { 'text/plain': { schema: Type.String() } } } },
      },
    },
    async (_request, reply) => reply.type(metrics.contentType).send(await metrics.metrics()),
  );
}
