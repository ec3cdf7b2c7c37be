/**
 * A page of a keyset-paginated list (`{object: 'list', data, has_more}`): the store read one row
 * more than the caller asked for, which says whether there is a next page.
 */
export const listPage = <T, R>(rows: T[], limit: number, present: (row: T) => R) => ({
  object: 'list' as const,
  data: rows.slice(0, limit).map(present),
  has_more: rows.length > limit,
});
