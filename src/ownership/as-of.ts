/**
 * The calendar date an ownership check speaks for: a US Eastern date (src/eastern-date.ts),
 * given as YYYY-MM-DD.
 */

/** True for a YYYY-MM-DD string naming a day that exists (no 30 February). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
