/** Its own file: the answer (answer-check.ts) and the answer the OpenAPI description documents (documented-answer.ts) both show it. */

/** The screening summary of a check that screened no names. */
export const NOT_SCREENED = {
  performed: false,
  threshold: null,
  entities_screened: 0,
  names_screened: 0,
  entities_matched: 0,
  entities_designated: 0,
  list_versions: [],
  lists_stale: false,
  stale_lists: [],
};
