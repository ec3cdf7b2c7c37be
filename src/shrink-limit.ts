/**
 * How much one bulk replacement may take away at once: a full workforce sync deactivating the
 * profiles it leaves out, a watchlist import in `replace` mode removing the entries it leaves
 * out. A file far shorter than what stands is likelier a truncated export than that many real
 * departures, so past this limit the caller must say so explicitly.
 */

/**
 * Removals always allowed, whatever the share: in a small set one or two leaving is ordinary
 * turnover, not a truncated file (10% of 30 would allow none).
 */
export const SHRINK_MIN_REMOVALS = 5;

/**
 * How many of `standing` records one replacement may take away: `limitPercent` of them, or
 * SHRINK_MIN_REMOVALS when that is more, but never all of them (an empty file is the likeliest
 * mistake of all, and in a small set it is within the minimum).
 */
export function shrinkLimit(standing: number, limitPercent: number): number {
  const byShare = Math.floor((standing * limitPercent) / 100);
  return Math.max(0, Math.min(Math.max(byShare, SHRINK_MIN_REMOVALS), standing - 1));
}
