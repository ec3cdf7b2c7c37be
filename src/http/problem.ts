/**
 * RFC 9457 problem details: the body of every error the service sends, and its schema for the
 * OpenAPI description.
 */
import { Type } from 'typebox';
import { type AppError, ERROR_CATALOG, type ErrorCode } from './errors.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';
/** Where each code is explained; `type` is this plus the code. */
export const PROBLEM_TYPE_BASE = 'https://gatehouse.dev/problems/';

export const ProblemSchema = Type.Object(
  {
    type: Type.String({ format: 'uri', description: 'Identifies the kind of problem; ends with the code.' }),
    title: Type.String({ description: 'Short summary, the same for every occurrence of the code.' }),
    status: Type.Integer({ description: 'The HTTP status code.' }),
    detail: Type.String({ description: 'What went wrong this time, for a human.' }),
    code: Type.Union(
      Object.keys(ERROR_CATALOG).map((code) => Type.Literal(code)),
      { description: 'Stable machine-readable code; switch on this, not on the text.' },
    ),
    request_id: Type.String({ description: 'The X-Request-ID of the request, for support and the audit trail.' }),
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          pointer: Type.String({ description: 'JSON Pointer (RFC 6901) to the offending value.' }),
          detail: Type.String(),
          in: Type.Optional(Type.Union([Type.Literal('body'), Type.Literal('query'), Type.Literal('path'), Type.Literal('header')])),
        }),
        { description: 'For validation failures: every problem found, not only the first, up to 100 (then `errors_truncated` is true).' },
      ),
    ),
    errors_truncated: Type.Optional(Type.Literal(true, { description: 'More values are invalid than `errors` lists: checking stopped after the first 100.' })),
  },
  { $id: 'Problem', additionalProperties: true, description: 'RFC 9457 problem details.' },
);

export type Problem = {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  request_id: string;
  [extension: string]: unknown;
};

export function toProblem(error: AppError, requestId: string): Problem {
  const { headers: _headers, ...extensions } = error.extras;
  return {
    type: PROBLEM_TYPE_BASE + error.code,
    title: error.title,
    status: error.status,
    detail: error.detail,
    code: error.code,
    request_id: requestId,
    ...extensions,
  };
}
