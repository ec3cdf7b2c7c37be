/**
 * JSON request bodies as the service reads them: UTF-8 only, and no `__proto__` members.
 *
 * RFC 8259 §8.1: JSON exchanged between systems is UTF-8. A body declared in another charset
 * (`charset=utf-16`, `latin1`) was read as UTF-8 and its names garbled silently; it is refused
 * with 415 instead, so the caller re-encodes it. A `__proto__` member is valid JSON, but assigned
 * or merged anywhere it would set an object's prototype rather than a field: it is refused as a
 * validation error that names each place it occurs, not as "not valid JSON".
 */
import type { FastifyRequest } from 'fastify';
import { AppError, type FieldError, MAX_FIELD_ERRORS } from './errors.ts';
import { pointerSegment } from './json-pointer.ts';

const PROTO = '__proto__';

/** What a JSON body declared in another charset is told. */
const jsonCharsetRefusal = (charset: string) =>
  `The body is declared as charset=${charset}; send JSON encoded as UTF-8 (RFC 8259), with charset=utf-8 or no charset.`;

/** Refuses a body whose Content-Type declares a charset other than UTF-8, with `refusal`'s message (a JSON body's by default). */
export function requireUtf8(contentType: string | undefined, refusal: (charset: string) => string = jsonCharsetRefusal): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '')?.[1];
  if (charset === undefined || /^utf-?8$/i.test(charset)) return;
  throw new AppError('unsupported_media_type', refusal(charset));
}

/** Fastify's parser for `application/json` bodies read as text (the body limit applies as it is read). */
export async function parseJsonBody(request: FastifyRequest, body: string | Buffer): Promise<unknown> {
  requireUtf8(request.headers['content-type']);
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.trim() === '') throw new AppError('malformed_json', 'The body is empty; send a JSON document.');
  return parseJsonText(text);
}

/** JSON text parsed as a body, its `__proto__` members refused; `pointer` is where the text sits in the whole body. */
export function parseJsonText(text: string, pointer = ''): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new AppError('malformed_json', `The body is not valid JSON: ${(error as Error).message}.`);
  }
  // JSON.parse makes `__proto__` an own member, harmless until copied; only a text that may spell it is walked.
  if (text.includes(PROTO) || text.includes('\\u')) refuseProtoMembers(value, pointer);
  return value;
}

/** Throws a validation error naming every `__proto__` member in the value (the first hundred). */
export function refuseProtoMembers(value: unknown, pointer = ''): void {
  const found: FieldError[] = [];
  const stack: [unknown, string][] = [[value, pointer]];
  while (stack.length > 0 && found.length < MAX_FIELD_ERRORS) {
    const [node, at] = stack.pop() as [unknown, string];
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push([node[i], `${at}/${i}`]);
    } else if (node !== null && typeof node === 'object') {
      const keys = Object.keys(node);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        const path = `${at}/${pointerSegment(key)}`;
        if (key === PROTO)
          found.push({ pointer: path, detail: 'is a member name this service refuses: `__proto__` would set an object’s prototype, not a field', in: 'body' });
        else stack.push([(node as Record<string, unknown>)[key], path]);
      }
    }
  }
  if (found.length === 0) return;
  throw new AppError('validation_failed', `The request has ${found.length} invalid value(s): ${found.map((f) => f.pointer).join(', ')}.`, { errors: found });
}
