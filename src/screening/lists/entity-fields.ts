/**
 * Small field helpers every list parser needs the same way: distinct values, country names
 * mapped to ISO codes (keeping what could not be mapped), ISO dates to partial dates.
 */
import { countryCode } from '../countries.ts';
import type { PartialDate } from '../model.ts';

export const unique = <T>(items: T[]): T[] => [...new Set(items)];

/** A table's own entry for a key read from a file (so that "constructor" finds nothing). */
export const lookup = <T>(table: Record<string, T>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);

/** Country names (or codes) as ISO 3166-1 alpha-2, and the names no code was found for, each once. */
export function mapCountries(
  names: string[],
  toCode: (name: string) => string | undefined = countryCode,
): { countries: string[]; unmappedCountries: string[] } {
  const codes = names.map((name) => [name, toCode(name)] as const);
  return {
    countries: unique(codes.flatMap(([, code]) => (code ? [code] : []))),
    unmappedCountries: unique(codes.flatMap(([name, code]) => (code ? [] : [name]))),
  };
}

/** `YYYY-MM` or `YYYY-MM-DD` at the start of a value (a time after it is ignored). */
export function isoDate(value: string | undefined): PartialDate | undefined {
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?/.exec(value?.trim() ?? '');
  if (!m) return undefined;
  return { year: Number(m[1]), month: Number(m[2]), ...(m[3] && { day: Number(m[3]) }) };
}
