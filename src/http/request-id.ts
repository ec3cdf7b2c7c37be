/**
 * Correlation ids. A caller's X-Request-ID is kept when it is safe to echo and to log (at most
 * 128 characters of [A-Za-z0-9._:-]); anything else is replaced rather than reflected, so a
 * header cannot inject text into logs or responses.
 */
import type { IncomingMessage } from 'node:http';
import { newId } from '../ids.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(request: IncomingMessage): string {
  const given = request.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : newId('req');
}
