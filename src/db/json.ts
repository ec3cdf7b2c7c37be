/**
 * A jsonb column as read back: parsed by the driver (pg, PGlite), or text when a query casts it.
 * Written with JSON.stringify, so either way the value is what was stored.
 */
export function fromJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
