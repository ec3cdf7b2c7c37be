/**
 * The OpenAPI description is valid OpenAPI 3.1 and describes exactly the API routes the server
 * registers (everything under /api; the console's pages are not part of the API), with the
 * conventions every route must follow.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { probeFeature } from '../helpers/probe-feature.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

type Operation = {
  summary?: string;
  tags?: string[];
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};
type Document = { openapi: string; paths: Record<string, Record<string, Operation>>; components?: unknown };

for (const variant of ['the real features', 'the real features plus a probe'] as const) {
  describe(`OpenAPI, built from ${variant}`, () => {
    let harness: TestApp;
    let doc: Document;
    after(() => harness.close());
    before(async () => {
      const { loadFeatures } = await import('../../src/http/feature.ts');
      const features = variant === 'the real features' ? undefined : [...(await loadFeatures()), probeFeature];
      harness = await buildTestApp(features ? { features } : {});
      const response = await harness.app.inject({ url: '/api/v1/openapi.json' });
      assert.equal(response.statusCode, 200);
      doc = response.json();
    });

    test('is valid OpenAPI 3.1', async () => {
      assert.equal(doc.openapi, '3.1.0');
      const result = await new Validator().validate(doc as never);
      assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    });

    test('lists exactly the API routes the server registered, and none of the console pages', () => {
      assert.ok(harness.app.routeIndex.routes.some((r) => r.url.startsWith('/console/')), 'the console is registered');
      const registered = harness.app.routeIndex.routes
        .filter((r) => r.method !== 'HEAD' && r.url.startsWith('/api/'))
        .map((r) => `${r.method} ${r.url.replace(/:([A-Za-z_]+)/g, '{$1}')}`)
        .sort();
      const described = Object.entries(doc.paths)
        .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
        .sort();
      assert.deepEqual(described, registered);
    });

    test('every operation has a summary, a tag, a success response and problem+json errors', () => {
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          const where = `${method.toUpperCase()} ${path}`;
          assert.ok(op.summary, `${where} has no summary`);
          assert.ok(op.tags?.length, `${where} has no tag`);
          assert.ok(Object.keys(op.responses).some((s) => /^2\d\d$/.test(s)), `${where} documents no 2xx answer`);
          for (const status of ['4XX', '5XX']) {
            assert.ok(op.responses[status]?.content?.['application/problem+json'], `${where} lacks ${status} problem+json`);
          }
        }
      }
    });

    test('every request body refuses unknown fields', () => {
      const open: string[] = [];
      const walk = (schema: unknown, where: string) => {
        if (!schema || typeof schema !== 'object') return;
        const s = schema as Record<string, unknown>;
        // A typed map (metadata: string keys, typed values) is not an open object: its values are checked.
        const typedMap = typeof s.additionalProperties === 'object' && Object.keys(s.additionalProperties as object).length > 0;
        if (s.type === 'object' && s.additionalProperties !== false && !typedMap) open.push(where);
        for (const [key, value] of Object.entries(s)) {
          if (key === 'properties') for (const [name, sub] of Object.entries(value as object)) walk(sub, `${where}/${name}`);
          else if (typeof value === 'object') walk(value, `${where}`);
        }
      };
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          for (const media of Object.values(op.requestBody?.content ?? {})) walk(media.schema, `${method} ${path}`);
        }
      }
      assert.deepEqual(open, []);
    });

    test('the reference page shows every operation and needs no script', async () => {
      const response = await harness.app.inject({ url: '/api/docs' });
      assert.equal(response.statusCode, 200);
      assert.match(String(response.headers['content-type']), /^text\/html/);
      assert.match(String(response.headers['content-security-policy']), /default-src 'none'/);
      assert.doesNotMatch(response.body, /<script/i);
      for (const path of Object.keys(doc.paths)) assert.ok(response.body.includes(`<code>${path}</code>`), path);
    });
  });
}
