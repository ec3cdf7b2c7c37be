/**
 * JSON with object keys sorted at every depth, so that equal values always give equal text
 * (for fingerprints and hashes). Arrays keep their order.
 *
 * The text is exactly what `JSON.stringify` gives for a copy of the value with its keys sorted,
 * which is how this was first written and what hashes already stored depend on; it is now written
 * in one pass without the copy, which had become the service's busiest function of its own
 * outside matching. Hence two rules of that first form: integer keys ("2", "10") come first, in
 * numeric order, as JavaScript orders them in any object; and a Date is its ISO text while any
 * other object is its own keys.
 */
export function canonicalJson(value: unknown): string {
  return write(value) as string;
}

/** The value's text, or undefined where JSON.stringify leaves a value out (undefined, a function, a symbol). */
function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'bigint': // refused with the same TypeError
      return JSON.stringify(value);
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? 'null').join(',')}]`;
      if (value instanceof Date) return JSON.stringify(value);
      return writeObject(value as Record<string, unknown>);
    default:
      return undefined;
  }
}

function writeObject(record: Record<string, unknown>): string {
  const keys = Object.keys(record);
  // Object.keys lists integer keys first, in numeric order; the rest in insertion order, to sort.
  let integers = 0;
  while (integers < keys.length && isArrayIndex(keys[integers] as string)) integers++;
  const ordered = integers === 0 ? keys.sort() : [...keys.slice(0, integers), ...keys.slice(integers).sort()];
  const members: string[] = [];
  for (const key of ordered) {
    const text = write(record[key]);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

const isArrayIndex = (key: string) => /^(?:0|[1-9]\d*)$/.test(key) && Number(key) < 4_294_967_295;
