/**
 * Each operation's error answers, one per status, each naming the codes it can carry: derived
 * from what the document already says about the operation (a credential, a body, parameters,
 * an id in the path, an `Idempotency-Key`, its tier and who may call it), plus the codes its route
 * throws itself, which it declares as `config: { problems: [...] }`. The same rules the server
 * applies, in one place, instead of a hand-written list per route that would drift.
 */
import type { FastifyInstance } from 'fastify';
import { ERROR_CATALOG, type ErrorCode } from '../errors.ts';
import { PRINCIPALS } from '../permissions.ts';
import { PROBLEM_CONTENT_TYPE, PROBLEM_TYPE_BASE } from '../problem.ts';
import { headerRefs, type ResponseHeaderName } from './response-headers.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The error codes this route's own logic can answer with, beyond those every route of its kind can (see error-responses.ts). */
    problems?: readonly ErrorCode[];
  }
}

/** Where a route's declared codes travel from its config to its operation in the document. */
const DECLARED = 'x-problems';

export function installDeclaredProblems(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (!route.config?.problems?.length) return;
    route.schema ??= {};
    Object.assign(route.schema, { [DECLARED]: route.config.problems });
  });
}

export type Operation = {
  security?: unknown[];
  requestBody?: unknown;
  parameters?: { in: string; name: string }[];
  responses: Record<string, Record<string, unknown>>;
  'x-tier'?: string;
  'x-allowed'?: readonly string[];
  [DECLARED]?: readonly ErrorCode[];
};

/** The codes an operation can answer with, in catalog order. */
export function problemCodesOf(operation: Operation): ErrorCode[] {
  const codes = new Set<ErrorCode>(['internal_error', 'service_unavailable']);
  const add = (...more: ErrorCode[]) => more.forEach((code) => codes.add(code));
  const parameters = operation.parameters ?? [];
  if (operation.security?.length) {
    add('unauthenticated', 'key_disabled', 'key_revoked', 'token_expired', 'organization_suspended', 'rate_limited');
    if (operation['x-tier'] === 'enterprise') add('tier_required');
    if ((operation['x-allowed']?.length ?? PRINCIPALS.length) < PRINCIPALS.length) add('role_required');
  }
  if (operation.requestBody) add('validation_failed', 'malformed_json', 'payload_too_large', 'unsupported_media_type');
  if (parameters.length > 0) add('validation_failed');
  if (parameters.some((p) => p.in === 'path')) add('not_found');
  if (parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key')) add('idempotency_key_reused', 'idempotency_key_in_progress');
  add(...(operation[DECLARED] ?? []));
  return (Object.keys(ERROR_CATALOG) as ErrorCode[]).filter((code) => codes.has(code));
}

/** Headers an error of this code carries besides the ones every answer does. */
const CODE_HEADERS: Partial<Record<ErrorCode, ResponseHeaderName[]>> = {
  unauthenticated: ['WWW-Authenticate'],
  key_disabled: ['WWW-Authenticate'],
  key_revoked: ['WWW-Authenticate'],
  token_expired: ['WWW-Authenticate'],
  rate_limited: ['Retry-After'],
  idempotency_key_in_progress: ['Retry-After'],
};

const REASONS: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthenticated',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Body too large',
  415: 'Unsupported media type',
  429: 'Too many requests',
  500: 'Internal error',
  503: 'Unavailable',
};

/**
 * Adds the operation's error answers to its responses, replacing the `4XX`/`5XX` catch-alls. A
 * status the route documents itself (with its own schema) keeps its schema and gains the other
 * codes in its description.
 */
export function addErrorResponses(operation: Operation, commonHeaders: ResponseHeaderName[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of problemCodesOf(operation)) {
    const status = ERROR_CATALOG[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  delete operation.responses['4XX'];
  delete operation.responses['5XX'];
  delete operation[DECLARED];
  for (const [status, codes] of byStatus) {
    const headers = headerRefs([...commonHeaders, ...new Set(codes.flatMap((code) => CODE_HEADERS[code] ?? []))]);
    const listed = codes.map((code) => `\`${code}\`: ${ERROR_CATALOG[code].title.toLowerCase()}`).join('; ');
    const own = operation.responses[status];
    if (own) {
      own.description = `${own.description} Also ${listed}.`;
      own.headers = { ...headers, ...(own.headers as object) };
      continue;
    }
    operation.responses[status] = {
      description: `${REASONS[status] ?? 'Error'}, as problem+json. \`code\` is one of: ${listed}.`,
      headers,
      content: {
        [PROBLEM_CONTENT_TYPE]: {
          schema: { allOf: [{ $ref: '#/components/schemas/Problem' }, { type: 'object', properties: { code: { enum: codes } } }] },
          examples: Object.fromEntries(codes.map((code) => [code, { summary: ERROR_CATALOG[code].title, value: exampleProblem(code) }])),
        },
      },
    };
  }
}

function exampleProblem(code: ErrorCode) {
  const { status, title } = ERROR_CATALOG[code];
  return {
    type: PROBLEM_TYPE_BASE + code,
    title,
    status,
    detail: `${title}.`,
    code,
    request_id: 'req_01jbz4r2c5m7p9r1t3v5x7z9ab',
    ...(code === 'validation_failed' && { errors: [{ pointer: '/name', detail: 'must NOT have fewer than 1 characters', in: 'body' }] }),
  };
}
