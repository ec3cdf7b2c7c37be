/**
 * A feature used only by tests: real routes with a body, a query and a fault, so the edge
 * behaviour (validation, parsing, limits, errors) is exercised through the real pipeline.
 */
import { Type } from 'typebox';
import type { Feature } from '../../src/http/feature.ts';

export const SECRET_IN_FAULT = 'password=hunter2 at /srv/gatehouse/db.ts:42';

export const probeFeature: Feature = {
  name: 'probe',
  async register(api) {
    api.get(
      '/probes/enterprise',
      {
        config: { permission: 'read', tier: 'enterprise' },
        schema: { tags: ['probe'], summary: 'An Enterprise-tier probe', response: { 200: Type.Object({ ok: Type.Boolean() }) } },
      },
      async () => ({ ok: true }),
    );

    // Counts how often its handler really ran, per organization, to prove replays do not run it.
    const runs = new Map<string, number>();
    const failedOnce = new Set<number>();
    api.post(
      '/counted',
      {
        config: { permission: 'operate', idempotent: true, tier: 'defense' },
        schema: {
          tags: ['probe'],
          summary: 'Count a write',
          body: Type.Object(
            { amount: Type.Integer(), pause_ms: Type.Optional(Type.Integer({ maximum: 2000 })), fail_first: Type.Optional(Type.Integer()) },
            { additionalProperties: false },
          ),
          response: { 201: Type.Object({ runs: Type.Integer(), amount: Type.Integer() }) },
        },
      },
      async (request, reply) => {
        const { amount, pause_ms: pause = 0, fail_first: failFirst } = request.body;
        // `fail_first: n` fails the first call carrying n, and succeeds after.
        if (failFirst !== undefined && !failedOnce.has(failFirst)) {
          failedOnce.add(failFirst);
          throw new Error('a fault on our side');
        }
        await new Promise((resolve) => setTimeout(resolve, pause));
        const organization = request.actor?.organizationId ?? 'anonymous';
        const count = (runs.get(organization) ?? 0) + 1;
        runs.set(organization, count);
        return reply.code(201).header('location', `/api/v1/counted/${count}`).send({ runs: count, amount });
      },
    );
    api.post(
      '/probes',
      {
        config: { permission: 'operate', tier: 'defense' },
        schema: {
          tags: ['probe'],
          summary: 'Echo a probe',
          body: Type.Object(
            {
              name: Type.String({ minLength: 1, maxLength: 20 }),
              count: Type.Optional(Type.Integer({ minimum: 0 })),
              colour: Type.Optional(Type.Union([Type.Literal('red'), Type.Literal('green')])),
              nested: Type.Optional(Type.Object({ flag: Type.Boolean() }, { additionalProperties: false })),
            },
            { additionalProperties: false },
          ),
          querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) }, { additionalProperties: false }),
          response: { 201: Type.Object({ name: Type.String(), limit: Type.Integer() }) },
        },
      },
      async (request, reply) => reply.code(201).send({ name: request.body.name, limit: request.query.limit ?? 10 }),
    );
    // A route with a body limit of its own, as the ownership check has, above the service-wide one.
    api.post(
      '/probes/large',
      {
        bodyLimit: 8192,
        config: { permission: 'operate', tier: 'defense' },
        schema: {
          tags: ['probe'],
          summary: 'Take a larger body than the other routes',
          body: Type.Object({ text: Type.String() }, { additionalProperties: false }),
          response: { 200: Type.Object({ length: Type.Integer() }) },
        },
      },
      async (request) => ({ length: request.body.text.length }),
    );
    api.get(
      '/probes/slow',
      {
        config: { permission: 'read', tier: 'defense' },
        schema: {
          tags: ['probe'],
          summary: 'Answer after a pause, to have a request in flight',
          querystring: Type.Object({ ms: Type.Integer({ minimum: 0, maximum: 5000 }) }, { additionalProperties: false }),
          response: { 200: Type.Object({ waited: Type.Integer() }) },
        },
      },
      async (request) => {
        await new Promise((resolve) => setTimeout(resolve, request.query.ms));
        return { waited: request.query.ms };
      },
    );
    api.get(
      '/probes/:id',
      {
        config: { permission: 'read', tier: 'defense' },
        schema: {
          tags: ['probe'],
          summary: 'Fail unexpectedly',
          params: Type.Object({ id: Type.String() }),
          response: { 200: Type.Object({}) },
        },
      },
      async () => {
        throw new Error(`database exploded: ${SECRET_IN_FAULT}`);
      },
    );
  },
};
