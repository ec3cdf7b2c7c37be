/**
 * A form that carries a file (multipart/form-data, RFC 7578), read into its fields as text: the
 * only way a browser sends a file without a script. Small on purpose: the console's forms have a
 * few fields and one file, so the body is read whole (within the route's limit), each part's
 * name taken from its Content-Disposition, and every value decoded as UTF-8, refused if it is not.
 * A field named twice keeps its first value, as the CSRF check and the schema read one.
 */
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.ts';
import type { Api } from '../../http/feature.ts';

/** More parts than any console form has: a body of thousands of empty parts is refused, not read. */
const MAX_PARTS = 20;

const CRLF = Buffer.from('\r\n');
const HEADERS_END = Buffer.from('\r\n\r\n');

const unreadable = (why: string): never => {
  throw new AppError('validation_failed', `The form could not be read: ${why}. Reload the page and send it again.`, {
    errors: [{ pointer: '', detail: why, in: 'body' }],
  });
};

/** Lets this scope's routes take multipart/form-data bodies up to `bodyLimit` bytes, as an object of their fields. */
export function acceptMultipartForms(api: Api, bodyLimit: number) {
  api.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit }, async (request: FastifyRequest, body: string | Buffer) =>
    readMultipart(Buffer.isBuffer(body) ? body : Buffer.from(body), request.headers['content-type'] ?? ''),
  );
}

export function readMultipart(body: Buffer, contentType: string): Record<string, string> {
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const delimiter = Buffer.from(`--${boundary?.[1] ?? boundary?.[2] ?? unreadable('its Content-Type names no boundary')}`);
  const separator = Buffer.concat([CRLF, delimiter]);
  const fields = new Map<string, string>();
  let at = body.indexOf(delimiter);
  if (at !== 0) unreadable('it does not start with its boundary');
  for (let parts = 0; ; parts++) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') return Object.fromEntries(fields);
    if (parts === MAX_PARTS) unreadable(`it has more than ${MAX_PARTS} parts`);
    if (!body.subarray(at, at + 2).equals(CRLF)) unreadable('a boundary is not followed by a line break');
    const headersEnd = body.indexOf(HEADERS_END, at);
    const end = body.indexOf(separator, headersEnd);
    if (headersEnd < 0 || end < 0) unreadable('a part is not closed by the boundary');
    const name = partName(body.subarray(at + 2, headersEnd).toString('latin1'));
    if (!fields.has(name)) fields.set(name, utf8(body.subarray(headersEnd + HEADERS_END.length, end), name));
    at = end + CRLF.length;
  }
}

/** The field's name in a part's headers (`Content-Disposition: form-data; name="file"; filename="x.csv"`). */
function partName(headers: string): string {
  const disposition = headers.split('\r\n').find((line) => /^content-disposition:/i.test(line)) ?? '';
  const name = /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
  return name ?? unreadable('a part has no name');
}

function utf8(bytes: Buffer, field: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new AppError('validation_failed', `The ${field} is not UTF-8 text. Save it as UTF-8 (in a spreadsheet: “CSV UTF-8”) and send it again.`, {
      errors: [{ pointer: `/${field}`, detail: 'is not UTF-8 text', in: 'body' }],
    });
  }
}
