/**
 * How current the lists are, as the outside sees it (GET /api/v1/lists): snake_case, times as ISO
 * text, ages in hours to a tenth. Errors arrive here without URL secrets (freshness.ts).
 */
import type { FreshnessReport, ListFreshness, SourceHealth } from './freshness.ts';

export const roundHours = (hours: number) => Math.round(hours * 10) / 10;

/**
 * A loaded version's freshness; `undefined` while the monitor has not yet read the confirmation of
 * a version imported since its last look (at most LISTS_RELOAD_SECONDS).
 */
export function presentListFreshness(freshness: ListFreshness | undefined) {
  return {
    confirmed_at: freshness?.confirmedAt.toISOString() ?? null,
    age_hours: freshness ? roundHours(freshness.ageHours) : null,
    max_age_hours: freshness?.maxAgeHours ?? null,
    stale: freshness?.stale ?? false,
    source: freshness?.source ?? null,
    source_failing: freshness?.sourceFailing ?? false,
  };
}

export function presentSourceHealth(source: SourceHealth) {
  return {
    source: source.source,
    label: source.label,
    lists: source.lists,
    last_attempt_at: source.lastAttemptAt?.toISOString() ?? null,
    last_success_at: source.lastSuccessAt?.toISOString() ?? null,
    consecutive_failures: source.consecutiveFailures,
    last_error: source.lastError,
    failing: source.failing,
  };
}

/** Each list's freshness by its code. */
export const freshnessByList = (report: FreshnessReport) => new Map(report.lists.map((l) => [l.list as string, l]));
