/**
 * Opaque pagination cursors: the position of the last item a page returned, as base64url JSON.
 * Callers only hand them back; a cursor that does not decode to a position this list produced is
 * a 400 on the `cursor` query parameter, never a 500 or a silently wrong page.
 */
import { AppError } from './errors.ts';

export const encodeCursor = (position: unknown): string => Buffer.from(JSON.stringify(position)).toString('base64url');

/** The position in `cursor`, if `accept` recognizes it as one of `list`'s; otherwise a 400 naming the parameter. */
export function decodeCursor<T>(cursor: string, list: string, accept: (value: unknown) => value is T): T {
  let position: unknown;
  try {
    position = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    position = undefined;
  }
  if (accept(position)) return position;
  throw new AppError('validation_failed', `The cursor is not one ${list} produced.`, {
    errors: [{ pointer: '/cursor', detail: 'is not a valid cursor', in: 'query' }],
  });
}

/** A position that is a row id alone (`{ i }`), for lists ordered by id. */
export const isIdPosition = (value: unknown): value is { i: string } =>
  typeof value === 'object' && value !== null && typeof (value as { i?: unknown }).i === 'string';
