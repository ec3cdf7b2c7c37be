/**
 * A request without a body is read as having none, whatever its Content-Type says. Automation
 * platforms and HTTP libraries send `Content-Type: application/json` (or `text/plain`) on a POST
 * with nothing in it, such as `POST /api-keys/{id}/disable`; Fastify would then run the type's
 * parser on the empty body and refuse it (400 or 415) before the route is reached. A route that
 * needs a body still says so, through its schema.
 */
import type { FastifyInstance } from 'fastify';

export function acceptBodylessRequests(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    const { headers } = request;
    const bodyless = headers['transfer-encoding'] === undefined && (headers['content-length'] === undefined || headers['content-length'] === '0');
    if (bodyless && headers['content-type'] !== undefined) delete headers['content-type'];
  });
}
