/**
 * One log line per request, when it ends: the request (method, path, address: see logging.ts),
 * its status and how long it took, under its request id. Fastify's default writes another line
 * when each request arrives, which says nothing the last line does not; at hundreds of requests
 * a second those lines were a measurable share of the server's CPU (BENCHMARKS.md, "Load").
 */
import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';

export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
