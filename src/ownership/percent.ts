/**
 * Percentages as exact integers. A stake of up to six decimals is held as millionths of a percent
 * (49.99 → 49,990,000), so sums are integer additions and the 50 % test is an integer comparison:
 * 49.99 + 0.01 is exactly 50, and 21.9 + 11.2 + 16.9 is exactly 50, where binary floating point
 * gives 49.999999999999993 and 49.99999999999999. Half a million stakes of 100 % sum to 5·10¹³,
 * well inside the integers a double holds exactly (2⁵³).
 */

/** Decimal places a stake may have. */
export const PERCENT_DECIMALS = 6;
const SCALE = 10 ** PERCENT_DECIMALS;

/** 100 % and the 50 % threshold of both rules (">= 50", OFAC R-O1, BIS Supp. No. 8 ¶(b)). */
export const HUNDRED_PERCENT = 100 * SCALE;
export const THRESHOLD = 50 * SCALE;

/**
 * The exact millionths a JSON number stands for, or a reason it cannot be a stake. A number with
 * at most six decimals is the double nearest to some whole number of millionths m, and m / 10⁶
 * then gives that same double back; a number with more decimals does not (33.3333333 is refused,
 * 33.333333 is 33,333,333). Two decimals of six places or fewer lie at least 10⁻⁶ apart, far
 * more than the spacing of doubles below 100, so m is the decimal the caller wrote.
 */
export function toMillionths(value: number): number | { problem: string } {
  if (!Number.isFinite(value)) return { problem: 'is not a finite number' };
  if (value < 0 || value > 100) return { problem: `is ${value}; a stake is between 0 and 100` };
  const millionths = Math.round(value * SCALE);
  if (millionths / SCALE !== value) return { problem: `is ${value}; give at most ${PERCENT_DECIMALS} decimals` };
  return millionths;
}

/** Millionths back to a percentage for the answer: the nearest double to the exact decimal. */
export const fromMillionths = (millionths: number): number => millionths / SCALE;

/** For sentences: "49.99%", "50%". */
export const percentText = (millionths: number): string => `${fromMillionths(millionths)}%`;
