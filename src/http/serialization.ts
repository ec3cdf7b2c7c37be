/**
 * Responses are serialized by Fastify's own compiler (fast-json-stringify), each route's
 * serializer compiled when the route first answers with it (compiled-on-first-use.ts).
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { compiledOnFirstUse } from './compiled-on-first-use.ts';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

export const buildSerializerCompiler: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    const serializer = compiledOnFirstUse(() => compile(route));
    return (payload) => serializer()(payload);
  };
};
