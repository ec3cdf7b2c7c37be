/**
 * JSON with object keys sorted at every depth, so that equal values always give equal text
 * (for fingerprints and hashes). Arrays keep their order.
 *
 * The text must stay byte for byte what the first form gave (hashes already stored depend on
 * it): JSON.stringify of a copy whose objects were rebuilt with Object.fromEntries from their
 * sorted keys. The copy is now built by assignment, about a third faster on stored screening
 * records (38–45 µs against 57–60 µs for a 3 KB record); writing the text in one pass instead
 * was slower than the native JSON.stringify. JavaScript objects list integer keys ("2", "10")
 * first in numeric order, in the copy as in the first form.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const inner = sortKeys((value as Record<string, unknown>)[key]);
      // Assigning "__proto__" would set the copy's prototype rather than a key of that name.
      if (key === '__proto__') Object.defineProperty(sorted, key, { value: inner, enumerable: true, writable: true, configurable: true });
      else sorted[key] = inner;
    }
    return sorted;
  }
  return value;
}
