/**
 * Free text about a list source (the error of its last check) names the URL that failed, and
 * operators may put credentials in a source's URL: a token in the query (the EU's `?token=`) or a
 * user and password before the host. Whatever shows it (the service's log, readyz, GET /v1/lists,
 * the `lists.update_failed` event every organization receives) passes it through this first: each
 * http(s) URL keeps its scheme, host and path, and loses the rest.
 */
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>]+/gi;
/** Punctuation that ends a sentence after a URL rather than belonging to it. */
const TRAILING = /[.,;:!)\]]+$/;

export function withoutUrlSecrets(text: string): string {
  return text.replace(URL_IN_TEXT, (match) => {
    const trailing = TRAILING.exec(match)?.[0] ?? '';
    return publicUrl(match.slice(0, match.length - trailing.length)) + trailing;
  });
}

function publicUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Not a URL after all: keep what precedes anything that could carry a secret.
    const cut = raw.search(/[?#@]/);
    return cut === -1 ? raw : `${raw.slice(0, cut)}…`;
  }
  const removed = url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '';
  return `${url.protocol}//${url.host}${url.pathname}${removed ? '?…' : ''}`;
}
