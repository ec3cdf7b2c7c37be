/**
 * A page of a keyset-paginated list (`{object: 'list', data, has_more}`): the store read one row
 * more than the caller asked for, which says whether there is a next page.
 */
import { encodeCursor } from './cursor.ts';

export const listPage = <T, R>(rows: T[], limit: number, present: (row: T) => R) => ({
  object: 'list' as const,
  data: rows.slice(0, limit).map(present),
  has_more: rows.length > limit,
});

/** The same, with `next_cursor`: the opaque position of the page's last row, for lists read by cursor. */
export const cursorPage = <T, R>(rows: T[], limit: number, present: (row: T) => R, positionOf: (row: T) => unknown) => {
  const page = listPage(rows, limit, present);
  const last = rows[Math.min(rows.length, limit) - 1];
  return { ...page, next_cursor: page.has_more && last !== undefined ? encodeCursor(positionOf(last)) : null };
};
