/**
 * What a caller gets when Node's HTTP parser cannot read its request, before any route or hook
 * runs: the same problem+json as every other error, rather than Node's or Fastify's own
 * `{"error":…,"statusCode":…}`. The connection is closed after it, as HTTP requires once the
 * request's framing is in doubt.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { newId } from '../ids.ts';
import { AppError, type ErrorCode } from './errors.ts';
import { PROBLEM_CONTENT_TYPE, toProblem } from './problem.ts';

/** Node's parser error codes, by what they tell the caller. */
const REFUSALS: Record<string, [ErrorCode, string]> = {
  HPE_HEADER_OVERFLOW: [
    'headers_too_large',
    'The request line and headers are larger than this server reads (16 KiB, a long query string included); send less in the URL and headers.',
  ],
  ERR_HTTP_REQUEST_TIMEOUT: ['request_timeout', 'The request did not arrive whole in time; send it again.'],
  HPE_HEADERS_TIMEOUT: ['request_timeout', 'The request headers did not arrive in time; send them again.'],
};

/** The problem+json answer, as raw HTTP/1.1, for a parser error. */
export function clientErrorResponse(error: NodeJS.ErrnoException): string {
  const [code, detail] = REFUSALS[error.code ?? ''] ?? [
    'bad_request',
    `The request could not be read as HTTP/1.1 (${error.code ?? 'parse error'}); check its request line and headers.`,
  ];
  const problem = new AppError(code, detail);
  // No request was read, so no id was sent or assigned: this answer's own id lets support find its log line.
  const body = JSON.stringify(toProblem(problem, newId('req')));
  return [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}`,
    `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Fastify's `clientErrorHandler`: answers what can still be answered, and drops what cannot. */
export function handleClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A connection the caller reset, or one already answered, has no one left to tell.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(error));
}
