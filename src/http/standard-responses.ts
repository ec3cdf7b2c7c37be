/**
 * Every route documents its error answers the same way: 4XX and 5XX are problem+json. Added to
 * each route as it is registered, so a feature's schema lists only its successful answers.
 */
import type { FastifyInstance } from 'fastify';
import { PROBLEM_CONTENT_TYPE } from './problem.ts';

const problem = (description: string) => ({
  description,
  content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: 'Problem#' } } },
});

export function installStandardResponses(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (!route.schema) return;
    const response = (route.schema.response ?? {}) as Record<string, unknown>;
    route.schema.response = {
      ...response,
      '4XX': response['4XX'] ?? problem('The request was refused; see `code` and `errors`.'),
      '5XX': response['5XX'] ?? problem('A fault of ours; quote `request_id` to support.'),
    };
  });
}
