/**
 * The US Eastern calendar date of an instant, YYYY-MM-DD. US sanctions and export rules take
 * effect on Washington dates (OFAC at 12:01 a.m. Eastern), whatever the server's clock zone: at
 * 23:30 in New York on 9 November it is already the 10th in UTC.
 */
const EASTERN = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' });

let cached = { minute: Number.NaN, date: '' };

/**
 * The en-CA locale writes dates as YYYY-MM-DD. Formatting costs tens of microseconds, paid by every
 * screening; the date can only change on a minute boundary, so the last minute's answer is kept.
 */
export function easternDate(instant: Date): string {
  const minute = Math.floor(instant.getTime() / 60_000);
  if (minute !== cached.minute) cached = { minute, date: EASTERN.format(instant) };
  return cached.date;
}
