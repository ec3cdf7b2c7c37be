/**
 * Tells background work when this process is answering a request (src/background-priority.ts):
 * counted from the first hook to the answer sent, or to the client going away, once per request.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestEnded, requestStarted } from '../background-priority.ts';

export function countRequestsInFlight(app: FastifyInstance) {
  const open = new WeakSet<FastifyRequest>();
  const end = async (request: FastifyRequest) => {
    if (open.delete(request)) requestEnded();
  };
  app.addHook('onRequest', async (request) => {
    open.add(request);
    requestStarted();
  });
  app.addHook('onResponse', end);
  app.addHook('onRequestAbort', end);
}
