/**
 * Which restricted-party lists this service screens against, and how fresh they are: the active
 * versions it has loaded in memory (not merely what the database holds), for every organization,
 * each with its last successful check and its source's health.
 * Also the readiness checks `lists` (not ready until at least one list is loaded) and
 * `list_freshness` (degraded while a list is stale or a source failing).
 */
import { Type } from 'typebox';
import type { Feature } from '../../http/feature.ts';
import { listsReadiness } from '../../lists/catalog.ts';
import type { ListFreshnessMonitor } from '../../lists/freshness.ts';
import { freshnessByList, presentListFreshness, presentSourceHealth } from '../../lists/freshness-view.ts';
import { presentVersion } from '../../lists/list-view.ts';
import { ListFreshnessFields, SourceHealthSchema } from './freshness-schemas.ts';

const Count = Type.Integer({ minimum: 0 });
const ListVersionSchema = Type.Object(
  {
    list: Type.String({ description: 'The list code, e.g. OFAC_SDN, UN_SC, BIS_DPL.', examples: ['OFAC_SDN'] }),
    version_id: Type.String({ description: 'The version of the list screenings name in their answers.', examples: ['lv_01j0w1c9v3k6f0m8q2r4t6y8za'] }),
    format: Type.String({ description: 'The source format it was read from.' }),
    published_on: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
      description: 'Publication date given by the source; null when the source gives none (OFAC legacy CSV).',
    }),
    imported_at: Type.String({ format: 'date-time' }),
    published_days_ago: Type.Union([Count, Type.Null()]),
    imported_hours_ago: Count,
    entity_count: Count,
    counts_by_type: Type.Object({ person: Count, organization: Count, vessel: Count, aircraft: Count }),
    changes: Type.Object(
      { added: Count, removed: Count, changed: Count },
      { description: 'Entries added, removed and changed against the previous version of the list.' },
    ),
    previous_version_id: Type.Union([Type.String(), Type.Null()]),
    source_sha256: Type.String({ description: 'SHA-256 of the source files as read.' }),
    content_sha256: Type.String({ description: 'SHA-256 of the canonical entries: equal means the same content.' }),
    warnings: Type.Array(Type.String(), { description: 'What the parser noted while reading the files.' }),
    ...ListFreshnessFields,
  },
  { $id: 'ListVersion' },
);
const ListsSchema = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(Type.Ref('ListVersion')),
  missing: Type.Array(Type.String(), { description: 'Lists the configured sources provide that are not loaded.' }),
  loaded_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When these versions were loaded into memory.' }),
  degraded: Type.Boolean({
    description:
      'A list is past its maximum age or a source failed its last LISTS_FAILED_CHECKS_BEFORE_DEGRADED checks: screenings still run, and /api/readyz says `degraded`.',
    examples: [false],
  }),
  problems: Type.Array(Type.String(), {
    description: 'Each reason for `degraded`, in words (as /api/readyz gives them); empty when none.',
    examples: [['UN_SC was last confirmed current 12 days ago (maximum 3 days)']],
  }),
  sources: Type.Array(SourceHealthSchema, { description: 'Each configured list source and how its checks are going.' }),
});

/** Degraded, not failing: stale lists are still screened against, and every answer says so. */
function freshnessReadiness(monitor: ListFreshnessMonitor) {
  return async () => {
    const report = monitor.report();
    return report.degraded ? { ok: true, degraded: true, detail: report.problems.join('; ') } : { ok: true };
  };
}

const lists: Feature = {
  name: 'lists',
  async register(api, { lists: catalog, listFreshness, readiness }) {
    readiness.add('lists', listsReadiness(catalog));
    readiness.add('list_freshness', freshnessReadiness(listFreshness));
    api.addSchema(ListVersionSchema);
    api.get(
      '/lists',
      {
        config: { tier: 'defense', permission: 'read' },
        schema: {
          tags: ['lists'],
          summary: 'The restricted-party lists screened against',
          description:
            'The active version of each list this service has loaded and screens against: publication date, import time, ' +
            'content hash, counts by type and the change from the previous version, and how current it is: its last successful check ' +
            '(`confirmed_at`: a check that found it unchanged, or an import), its age from there and the maximum age it is held to, ' +
            'so that a stale list is visible. `sources` shows how the checks of each configured source are going; `degraded` and `problems` ' +
            'say what /api/readyz says. `missing` names expected lists that are not loaded. The same for every organization.',
          response: { 200: ListsSchema },
        },
      },
      async () => {
        const snapshot = catalog.current();
        const now = new Date();
        const report = listFreshness.report(now);
        const freshness = freshnessByList(report);
        return {
          object: 'list' as const,
          data: (snapshot?.versions ?? []).map((version) => ({ ...presentVersion(version, now), ...presentListFreshness(freshness.get(version.list)) })),
          missing: catalog.missing(),
          loaded_at: snapshot?.loadedAt.toISOString() ?? null,
          degraded: report.degraded,
          problems: report.problems,
          sources: report.sources.map(presentSourceHealth),
        };
      },
    );
  },
};

export default lists;
