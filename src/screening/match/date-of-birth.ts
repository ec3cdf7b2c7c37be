/**
 * What a subject's date of birth says about a listed person's. A year off by one or two, a day and
 * month written the other way round, another day in the same year, or the listed year written in
 * the Solar or lunar Hijri calendar is how one person's date is mistyped or converted, not evidence
 * of another person: such a date is "close", and corroborates weakly or is neutral. Only a date
 * beyond that contradicts.
 *
 * The listed date's own imprecision is kept: a circa year allows three years either way, a range
 * its span, and "close" is measured from the edge of that span.
 */
import { type DateOfBirth, type PartialDate, partialDateText } from '../model.ts';
import type { Verdict } from './verdict.ts';

/** The strengths a date of birth moves a score by (see qualifiers.ts for how each is applied). */
export const DATE_OF_BIRTH = { exact: 0.5, fits: 0.2, contradicts: 0.25 } as const;

/** A year this far from the listed one (or its span) is a data-entry slip, not another person. */
export const CLOSE_YEARS = 2;
const CIRCA_YEARS = 3;
/** A given year below this is no Gregorian birth year of anyone alive: it may be another calendar's. */
const OTHER_CALENDAR_BELOW = 1700;

/** How well one listed date fits, best first; the best listed date gives the verdict. */
const RANK = { exact: 4, fits: 3, close: 2, differs: 1 } as const;
type Reading = { rank: number; verdict: Verdict };

export function dateOfBirthVerdict(given: PartialDate | undefined, listed: DateOfBirth[]): Verdict {
  if (!given) return { effect: 'unknown', strength: 0, detail: 'no date of birth given' };
  if (listed.length === 0) return { effect: 'unknown', strength: 0, detail: 'the entry has no date of birth' };
  const readings = listed.map((d) => read(given, d, `born ${partialDateText(given)}; the entry gives ${shown(d)}`));
  const best = readings.reduce((a, b) => (b.rank > a.rank ? b : a));
  if (best.rank === RANK.differs && listed.length > 1) {
    return {
      ...best.verdict,
      detail: `born ${partialDateText(given)}; the entry gives ${listed.map(shown).join(', ')}: more than ${CLOSE_YEARS} years from each`,
    };
  }
  return best.verdict;
}

function read(given: PartialDate, d: DateOfBirth, said: string): Reading {
  const [from, to] = yearSpan(d);
  const exactlyDated = !d.circa && !d.until;
  if (given.year >= from && given.year <= to) {
    if (exactlyDated && fullyKnown(given) && fullyKnown(d)) {
      if (given.month === d.month && given.day === d.day)
        return {
          rank: RANK.exact,
          verdict: { effect: 'corroborates', strength: DATE_OF_BIRTH.exact, detail: `date of birth ${partialDateText(given)} is on the entry` },
        };
      if (given.month === d.day && given.day === d.month) {
        return {
          rank: RANK.fits,
          verdict: {
            effect: 'corroborates',
            strength: DATE_OF_BIRTH.fits,
            detail: `${said}: day and month swapped, read as the same date written the other way round`,
          },
        };
      }
    }
    if (!exactlyDated || agreesWhereBothSay(given, d)) {
      return {
        rank: RANK.fits,
        verdict: { effect: 'corroborates', strength: DATE_OF_BIRTH.fits, detail: `year of birth ${given.year} fits the entry's ${shown(d)}` },
      };
    }
    return {
      rank: RANK.close,
      verdict: { effect: 'neutral', strength: 0, detail: `${said}: the same year with another day or month, read as a data-entry slip` },
    };
  }
  const apart = given.year < from ? from - given.year : given.year - to;
  if (apart <= CLOSE_YEARS) {
    return {
      rank: RANK.close,
      verdict: {
        effect: 'neutral',
        strength: 0,
        detail: `${said}: ${apart} year${apart === 1 ? '' : 's'} apart, within ${CLOSE_YEARS} years, read as a data-entry slip`,
      },
    };
  }
  const converted = otherCalendar(given.year, from, to);
  if (converted)
    return {
      rank: RANK.close,
      verdict: { effect: 'neutral', strength: 0, detail: `${said}: ${converted}, read as the same year written in another calendar` },
    };
  return {
    rank: RANK.differs,
    verdict: { effect: 'contradicts', strength: DATE_OF_BIRTH.contradicts, detail: `${said}: more than ${CLOSE_YEARS} years apart` },
  };
}

/**
 * The given year read in the Solar Hijri calendar (Iran, Afghanistan: its year begins at Nowruz, so
 * Gregorian − 621 or − 622) or the lunar Hijri one (354-day years beginning on 16 July 622), when
 * either puts it in the listed span; the words saying so, or undefined.
 */
function otherCalendar(year: number, from: number, to: number): string | undefined {
  if (year >= OTHER_CALENDAR_BELOW) return undefined;
  const inSpan = (g: number) => g >= from && g <= to;
  const solar = [year + 621, year + 622].filter(inSpan);
  if (solar.length > 0) return `${year} in the Solar Hijri calendar is ${year + 621}/${year + 622}`;
  const lunar = lunarHijriYears(year);
  if (lunar.some(inSpan)) return `${year} in the lunar Hijri calendar is ${lunar.join('/')}`;
  return undefined;
}

/** The Gregorian years the lunar Hijri year overlaps (it is 11 days shorter, so one or two). */
function lunarHijriYears(hijri: number): number[] {
  const start = (h: number) => 622.54 + (h - 1) * (354.367 / 365.2425);
  const first = Math.floor(start(hijri));
  const last = Math.floor(start(hijri + 1) - 1 / 365);
  return first === last ? [first] : [first, last];
}

/** Years the listed date allows: a circa date ±3, a range its span, any other date its year. */
function yearSpan(listed: DateOfBirth): [number, number] {
  if (listed.until) return [listed.year, listed.until.year];
  const slack = listed.circa ? CIRCA_YEARS : 0;
  return [listed.year - slack, listed.year + slack];
}

const fullyKnown = (d: PartialDate) => d.month !== undefined && d.day !== undefined;

/** Month and day agree wherever both dates give them (a year-only date agrees with any day of its year). */
const agreesWhereBothSay = (a: PartialDate, b: PartialDate) =>
  (a.month === undefined || b.month === undefined || a.month === b.month) && (a.day === undefined || b.day === undefined || a.day === b.day);

const shown = (d: DateOfBirth) => (d.until ? `${partialDateText(d)} to ${partialDateText(d.until)}` : `${d.circa ? 'circa ' : ''}${partialDateText(d)}`);
