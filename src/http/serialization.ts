/**
 * Responses are serialized by Fastify's own compiler (fast-json-stringify), each route's
 * serializer compiled the first time the route answers with it rather than as the app starts:
 * compiling every route's response schemas took about a third of a second of each start, for
 * processes that mostly answer a few routes (see validation.ts, which does the same for requests).
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

export const buildSerializerCompiler: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: ((payload: unknown) => string) | undefined;
    return (payload) => {
      serialize ??= compile(route);
      return serialize(payload);
    };
  };
};
