/**
 * A list version as the outside sees it (the CLI's JSON and the HTTP API): snake_case, dates as
 * ISO text, and its age, so that a stale list is visible at a glance.
 */
import type { ListVersion } from './list-store.ts';

const HOUR_MS = 3_600_000;

export type ListVersionView = ReturnType<typeof presentVersion>;

export function presentVersion(version: ListVersion, now = new Date()) {
  return {
    list: version.list,
    version_id: version.id,
    format: version.format,
    published_on: version.publishedOn,
    imported_at: version.importedAt.toISOString(),
    /** Whole days since publication, when the source gives a date. */
    published_days_ago: version.publishedOn === null ? null : Math.floor((now.getTime() - Date.parse(`${version.publishedOn}T00:00:00Z`)) / (24 * HOUR_MS)),
    imported_hours_ago: Math.floor((now.getTime() - version.importedAt.getTime()) / HOUR_MS),
    entity_count: version.entityCount,
    counts_by_type: {
      person: version.countsByType.person,
      organization: version.countsByType.organization,
      vessel: version.countsByType.vessel,
      aircraft: version.countsByType.aircraft,
    },
    changes: version.changes,
    previous_version_id: version.previousVersionId,
    source_sha256: version.sourceSha256,
    content_sha256: version.contentSha256,
    warnings: version.warnings,
  };
}
