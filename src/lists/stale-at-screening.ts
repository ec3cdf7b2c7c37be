/**
 * What a screening records about the freshness of the lists it ran against, taken from the
 * freshness report at the moment it ran, so that the record says so for good (a list confirmed
 * again tomorrow does not make yesterday's screening current).
 *
 * Only age counts: a list past its maximum age is stale. A source whose recent checks failed
 * while its lists are still within their age is an operator's problem (readyz, the console, the
 * `lists.update_failed` event), not a fact about the screening: the maximum age is the
 * organization's measure of current, and it bounds how long a failing source goes unrecorded.
 */
import type { FreshnessReport } from './freshness.ts';
import { freshnessByList, roundHours } from './freshness-view.ts';

export type StaleListRecord = {
  list: string;
  /** The version the screening ran against. */
  version_id: string;
  /** The list's last successful check (or import) before the screening. */
  confirmed_at: string;
  /** Hours from `confirmed_at` to the screening, to a tenth. */
  age_hours: number;
  max_age_hours: number;
};

export type ListStaleness = { lists_stale: boolean; stale_lists: StaleListRecord[] };

/**
 * `versions`: those consulted. A list the report does not know yet was imported since the monitor
 * last looked (seconds ago), so it is current.
 */
export function stalenessAtScreening(report: FreshnessReport, versions: readonly { list: string; version_id: string }[]): ListStaleness {
  const byList = freshnessByList(report);
  const stale_lists = versions.flatMap((version): StaleListRecord[] => {
    const freshness = byList.get(version.list);
    if (!freshness?.stale) return [];
    return [
      {
        list: version.list,
        version_id: version.version_id,
        confirmed_at: freshness.confirmedAt.toISOString(),
        age_hours: roundHours(freshness.ageHours),
        max_age_hours: freshness.maxAgeHours,
      },
    ];
  });
  return { lists_stale: stale_lists.length > 0, stale_lists };
}
