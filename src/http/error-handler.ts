/**
 * Every failure leaves as RFC 9457 problem+json: errors we throw (`AppError`), Fastify's own
 * (validation, body parsing, sizes, content types), unknown routes and methods, and anything
 * unexpected, which is logged in full and answered with nothing internal.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode, isAppError } from './errors.ts';
import { PROBLEM_CONTENT_TYPE, toProblem } from './problem.ts';
import type { RouteIndex } from './route-index.ts';
import { toFieldErrors } from './validation.ts';

/** Fastify's error codes that are the caller's fault, and what we call them. */
const FASTIFY_CODES: Record<string, { code: ErrorCode; detail: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'unsupported_media_type',
    detail: 'Send the body as application/json.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: 'malformed_json',
    detail: 'The Content-Length header does not match the body.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'malformed_json', detail: 'The body is empty; send a JSON document.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'malformed_json', detail: 'The body is not valid JSON.' },
};

export function sendProblem(reply: FastifyReply, error: AppError) {
  for (const [name, value] of Object.entries(error.extras.headers ?? {})) reply.header(name, value);
  // Serialized here, not by the route's schema, so an error body never depends on a route.
  return reply
    .code(error.status)
    .type(PROBLEM_CONTENT_TYPE)
    .send(JSON.stringify(toProblem(error, String(reply.request.id))));
}

/** How many invalid fields the detail line names; `errors` carries up to MAX_FIELD_ERRORS. */
const NAMED_IN_DETAIL = 10;

export function toAppError(error: FastifyError, request: FastifyRequest, bodyLimit: number): AppError {
  if (isAppError(error)) return error;
  if (error.validation) {
    const { errors, truncated } = toFieldErrors(error.validation as never, error.validationContext);
    const fields = errors.slice(0, NAMED_IN_DETAIL).map((e) => e.pointer || '(the whole value)');
    const count = truncated ? `more than ${errors.length} invalid values` : `${errors.length} invalid value(s)`;
    const others = errors.length > fields.length ? ` and ${errors.length - fields.length} more listed in \`errors\`` : '';
    const rest = truncated ? ` The first ${errors.length} are listed; checking stopped there.` : '';
    return new AppError('validation_failed', `The request has ${count}: ${fields.join(', ')}${others}.${rest}`, {
      errors,
      ...(truncated && { errors_truncated: true }),
    });
  }
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    // A route may read larger bodies than the service-wide limit (the ownership check does).
    return new AppError('payload_too_large', `The body is larger than the limit of ${request.routeOptions?.bodyLimit ?? bodyLimit} bytes.`);
  }
  const known = FASTIFY_CODES[error.code];
  if (known) return new AppError(known.code, known.detail);
  // The JSON parser reports a syntax error as a plain SyntaxError with status 400.
  if (error instanceof SyntaxError && error.statusCode === 400) {
    return new AppError('malformed_json', 'The body is not valid JSON.');
  }
  if (error.statusCode === 408 || error.code === 'FST_ERR_REQUEST_TIMEOUT') {
    return new AppError('service_unavailable', 'The request took too long and was abandoned.');
  }
  request.log.error({ err: error }, 'unhandled error');
  return new AppError('internal_error', `Something went wrong on our side. Quote request id ${request.id} to support.`);
}

export function installErrorHandling(app: FastifyInstance, routes: RouteIndex, bodyLimit: number) {
  app.setErrorHandler((error: FastifyError, request, reply) => sendProblem(reply, toAppError(error, request, bodyLimit)));

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = routes.methodsFor(path);
    if (allowed.length > 0) {
      return sendProblem(
        reply,
        new AppError('method_not_allowed', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}.`, {
          headers: { allow: allowed.join(', ') },
        }),
      );
    }
    return sendProblem(reply, new AppError('not_found', `There is no endpoint at ${request.method} ${path}.`));
  });
}
