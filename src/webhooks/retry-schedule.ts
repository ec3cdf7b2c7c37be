/**
 * When a failed delivery is tried again: Svix's schedule (0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h,
 * 10 h, about 27.6 hours in all), each delay spread by ±10 % so that a receiver that comes back
 * is not hit by every retry at once, and never sooner than its `Retry-After` asked.
 */

/** The delay before each attempt of a round, after the failure of the one before (the first is immediate). */
export const RETRY_SCHEDULE_SECONDS = [0, 5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;
/** An endpoint that has failed without a success for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;
const JITTER = 0.1;
/** A Retry-After further away than this is taken as this. */
const LONGEST_RETRY_AFTER_MS = 24 * 3600 * 1000;

/**
 * The delay before the next attempt, after `failedInRound` failed attempts in this round, or
 * undefined when the round is exhausted. `random` is in [0, 1).
 */
export function nextAttemptDelayMs(failedInRound: number, options: { retryAfterMs?: number; random: () => number }): number | undefined {
  const seconds = RETRY_SCHEDULE_SECONDS[failedInRound];
  if (seconds === undefined) return undefined;
  const scheduled = Math.round(seconds * 1000 * (1 + JITTER * (2 * options.random() - 1)));
  const asked = Math.min(options.retryAfterMs ?? 0, LONGEST_RETRY_AFTER_MS);
  return Math.max(scheduled, asked);
}

/** `Retry-After` as milliseconds from `now`: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now.getTime());
}
