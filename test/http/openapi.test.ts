/**
 * The OpenAPI description is valid OpenAPI 3.1 and describes exactly the API routes the server
 * registers (everything under /api; the console's pages are not part of the API), with the
 * conventions every route must follow.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import { EVENT_TYPES, TEST_EVENT_TYPE } from '../../src/events/event-types.ts';
import { exampleOf } from '../../src/http/openapi/example-values.ts';
import { operationIdFor } from '../../src/http/openapi/operation-ids.ts';
import { createKey, createOrganization } from '../helpers/credentials.ts';
import { probeFeature } from '../helpers/probe-feature.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

type Media = { schema: unknown; example?: unknown; examples?: unknown };
type Operation = {
  summary?: string;
  operationId?: string;
  tags: string[];
  security?: unknown[];
  requestBody?: { content: Record<string, Media & { schema: Record<string, unknown> }> };
  responses: Record<string, { description?: string; headers?: Record<string, unknown>; content?: Record<string, Media> }>;
};
type Document = { openapi: string; tags?: { name: string; description?: string }[]; paths: Record<string, Record<string, Operation>>; components?: unknown };

for (const variant of ['the real features', 'the real features plus a probe'] as const) {
  describe(`OpenAPI, built from ${variant}`, () => {
    let harness: TestApp;
    let doc: Document;
    after(() => harness.close());
    before(async () => {
      const { APP_FEATURES } = await import('../../src/composition.ts');
      const features = variant === 'the real features' ? undefined : [...APP_FEATURES, probeFeature];
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
      assert.ok(
        harness.app.routeIndex.routes.some((r) => r.url.startsWith('/console/')),
        'the console is registered',
      );
      const registered = harness.app.routeIndex.routes
        .filter((r) => r.method !== 'HEAD' && r.url.startsWith('/api/'))
        .map((r) => `${r.method} ${r.url.replace(/:([A-Za-z_]+)/g, '{$1}')}`)
        .sort();
      const described = Object.entries(doc.paths)
        .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
        .sort();
      assert.deepEqual(described, registered);
    });

    test('every operation has a summary, a declared tag, a success response and its errors one status at a time, as problem+json with their codes', () => {
      const declared = new Map((doc.tags ?? []).map((tag) => [tag.name, tag.description]));
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(item)) {
          const where = `${method.toUpperCase()} ${path}`;
          assert.ok(op.summary, `${where} has no summary`);
          assert.ok(op.tags?.length, `${where} has no tag`);
          // The probe is a test's own feature, with a tag of its own.
          for (const tag of op.tags) if (tag !== 'probe') assert.ok(declared.get(tag), `${where}: tag "${tag}" is not declared with a description`);
          assert.ok(
            Object.keys(op.responses).some((s) => /^2\d\d$/.test(s)),
            `${where} documents no 2xx answer`,
          );
          for (const [status, response] of Object.entries(op.responses)) {
            assert.ok(/^\d{3}$/.test(status), `${where} documents the range ${status} instead of its statuses`);
            assert.ok(response.description && response.description !== 'Default Response', `${where} ${status} has no description`);
            assert.ok(response.headers?.['X-Request-ID'], `${where} ${status} does not document X-Request-ID`);
            for (const [type, media] of Object.entries(response.content ?? {})) {
              if (!/^application\/(problem\+)?json$/.test(type)) continue; // not a PDF, CSV or NDJSON stream
              assert.ok(media.example !== undefined || media.examples !== undefined, `${where} ${status} has no example`);
            }
          }
          assert.ok(op.responses['500']?.content?.['application/problem+json'], `${where} lacks 500 problem+json`);
          assert.ok(op.responses['503'], `${where} does not document 503`); // readiness's own body, or problem+json
          for (const media of Object.values(op.requestBody?.content ?? {}))
            assert.ok(media.example !== undefined || media.examples !== undefined, `${where} has no request example`);
        }
      }
    });

    test('operationIds are unique and made from the method and path', () => {
      const ids = Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => [op.operationId, operationIdFor(method, path)]),
      );
      for (const [given, derived] of ids) assert.equal(given, derived);
      assert.equal(new Set(ids.map(([id]) => id)).size, ids.length, 'duplicate operationId');
      assert.equal(operationIdFor('post', '/api/v1/adjudication/{id}/disposition'), 'postAdjudicationByIdDisposition');
    });

    test('the errors an operation answers are the ones it documents, status and code', async () => {
      // A Defense standard key meets tiers and roles; an Enterprise admin key gets past them, to ids that do not exist.
      const { key } = await createKey(harness.database.owner, await createOrganization(harness.database.owner, { tier: 'defense' }), { admin: false });
      const admin = await createKey(harness.database.owner, await createOrganization(harness.database.owner, { tier: 'enterprise' }), { admin: true });
      const refused: string[] = [];
      for (const [path, item] of Object.entries(doc.paths)) {
        if (!path.startsWith('/api/v1/')) continue;
        for (const [method, op] of Object.entries(item)) {
          if (!op.security?.length) continue;
          const parameters = (op as { parameters?: { in: string; name: string; schema: unknown }[] }).parameters ?? [];
          const url = path.replace(/\{([^}]+)\}/g, (_, name) => String(exampleOf(parameters.find((p) => p.in === 'path' && p.name === name)?.schema, {})));
          const hasBody = Boolean(op.requestBody);
          const calls = [
            { headers: {} }, // no credential: 401
            { headers: { authorization: `Bearer ${key}` } },
            { headers: admin.headers, ...(hasBody && { headers: { ...admin.headers, 'content-type': 'application/json' }, payload: '{}' }) },
            ...(hasBody ? [{ headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: '{"unfinished' }] : []),
          ];
          for (const call of calls) {
            const response = await harness.app.inject({ method: method.toUpperCase() as never, url, ...call });
            if (response.statusCode < 400) continue;
            const code = response.json().code as string;
            const documented = op.responses[String(response.statusCode)]?.content?.['application/problem+json']?.schema as
              | { allOf?: { properties?: { code?: { enum?: string[] } } }[] }
              | undefined;
            const codes = documented?.allOf?.[1]?.properties?.code?.enum;
            if (codes ? !codes.includes(code) : !op.responses[String(response.statusCode)])
              refused.push(`${method.toUpperCase()} ${path}: ${response.statusCode} ${code}`);
          }
        }
      }
      assert.deepEqual(refused, [], 'answered with a status or code the operation does not document');
    });

    test('webhooks: every event type sent, its envelope typed by its own payload, and its example valid against it', () => {
      const webhooks =
        (doc as { webhooks?: Record<string, { post: { operationId: string; requestBody: { content: { 'application/json': Media } } } }> }).webhooks ?? {};
      assert.deepEqual(Object.keys(webhooks).sort(), [...EVENT_TYPES, TEST_EVENT_TYPE].sort());
      const ajv = new Ajv2020({ strict: false });
      (addFormatsPlugin as unknown as (ajv: Ajv2020) => Ajv2020)(ajv);
      for (const [type, item] of Object.entries(webhooks)) {
        const media = item.post.requestBody.content['application/json'];
        const validate = ajv.compile(media.schema as object);
        assert.ok(validate(media.example), `${type}: ${JSON.stringify(validate.errors)}`);
        assert.equal(validate({ ...(media.example as object), type: 'some.other_type' }), false, `${type}: the envelope does not fix its type`);
      }
    });

    test('every paged list pages one way: limit and cursor in, has_more and next_cursor out; old parameter names only as deprecated', () => {
      const resolve = (schema: { $ref?: string } & Record<string, unknown>): Record<string, unknown> =>
        schema.$ref
          ? ((doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas[schema.$ref.split('/').pop() as string] as Record<
              string,
              unknown
            >)
          : schema;
      const odd: string[] = [];
      let paged = 0;
      for (const [path, item] of Object.entries(doc.paths)) {
        const op = item.get as (Operation & { parameters?: { name: string; in: string; deprecated?: boolean }[] }) | undefined;
        const schema = op?.responses['200']?.content?.['application/json']?.schema as Record<string, unknown> | undefined;
        const properties = schema && (resolve(schema).properties as Record<string, unknown> | undefined);
        if (!properties || !('has_more' in properties)) continue;
        paged += 1;
        const query = (op?.parameters ?? []).filter((p) => p.in === 'query');
        const names = new Set(query.map((p) => p.name));
        if (!names.has('limit') || !names.has('cursor') || !('next_cursor' in properties)) odd.push(`${path}: ${[...names].join(', ')}`);
        for (const p of query)
          if (['after', 'starting_after', 'before'].includes(p.name) && !p.deprecated) odd.push(`${path}: ${p.name} is not marked deprecated`);
      }
      assert.ok(paged >= 9, `${paged} paged lists`);
      assert.deepEqual(odd, []);
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
