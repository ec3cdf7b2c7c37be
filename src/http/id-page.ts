/**
 * One pagination style for every list: `limit`, and `cursor`, the `next_cursor` of the page
 * before; each answer is `{object: 'list', data, has_more, next_cursor}`. The lists that were
 * first paged by `starting_after` (an id) keep taking it, marked deprecated, so an integration
 * written against them keeps working while it moves to `cursor`.
 */
import { Type } from 'typebox';
import { decodeCursor, isIdPosition } from './cursor.ts';

/** The query fields of a list ordered by id; `what` names its items ("key", "endpoint"). */
export const idPageQueryFields = (what: string, idPattern?: string) => ({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'At most this many items.' })),
  cursor: Type.Optional(Type.String({ maxLength: 300, description: 'The `next_cursor` of the page before.' })),
  starting_after: Type.Optional(
    Type.String({
      ...(idPattern && { pattern: idPattern }),
      deprecated: true,
      description: `Deprecated, kept working: the id of the last ${what} of the previous page. Use \`cursor\`, as every list does.`,
    }),
  ),
});

export const NextCursor = Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last.' });

/** The id a page starts after: the cursor's, or the deprecated `starting_after`'s. */
export function pageStartsAfter(query: { cursor?: string | undefined; starting_after?: string | undefined }, list: string): string | undefined {
  return query.cursor ? decodeCursor(query.cursor, list, isIdPosition).i : query.starting_after;
}
