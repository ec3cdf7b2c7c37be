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
    api.post(
      '/probes',
      {
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
    api.get(
      '/probes/slow',
      {
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
