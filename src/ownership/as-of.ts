/**
 * The calendar date an ownership check speaks for. Both regimes date their rules in Washington,
 * so "today" is today in US Eastern time, whatever the server's clock zone: at 23:30 in New York
 * on 9 November 2026 the BIS rule is still suspended, although it is already the 10th in UTC.
 */

const EASTERN = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' });

/** YYYY-MM-DD in US Eastern time (the en-CA locale writes dates in that order). */
export const easternDate = (now: Date): string => EASTERN.format(now);

/** True for a YYYY-MM-DD string naming a day that exists (no 30 February). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
