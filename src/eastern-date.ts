/**
 * The US Eastern calendar date of an instant, YYYY-MM-DD. US sanctions and export rules take
 * effect on Washington dates (OFAC at 12:01 a.m. Eastern), whatever the server's clock zone: at
 * 23:30 in New York on 9 November it is already the 10th in UTC.
 */
const EASTERN = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The en-CA locale writes dates as YYYY-MM-DD. */
export const easternDate = (instant: Date): string => EASTERN.format(instant);
