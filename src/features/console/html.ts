/**
 * HTML with escaping on by default: every value put into an `html` template is escaped unless it
 * is itself `Html` (another template's result). There is no way to mark a string as safe but to
 * build it with `html`, so a name from a list, a reason or a URL can never become markup.
 *
 * Chosen over a template engine: the pages are TypeScript, so every value a page shows is
 * type-checked against the service that produced it, and there is no second language to escape in.
 */
export class Html {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);

/** Nothing, empty strings, `false` and `null` render as nothing; arrays render each item. */
type Value = Html | string | number | boolean | null | undefined | readonly Value[];

function render(value: Value): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Value[]): Html {
  let out = strings[0] as string;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1];
  });
  return new Html(out);
}

/** A path with its query: undefined, empty and false parameters left out, the rest encoded. */
export function href(path: string, query: Record<string, string | number | boolean | undefined | null> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== null && value !== '' && value !== false) params.set(name, String(value));
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
