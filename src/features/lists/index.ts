/**
 * Which restricted-party lists this service screens against, and how fresh they are: the active
 * versions it has loaded in memory (not merely what the database holds), for every organization.
 * Also the `lists` readiness check: not ready until at least one list is loaded.
 */
import { Type } from 'typebox';
import type { Feature } from '../../http/feature.ts';
import { listsReadiness } from '../../lists/catalog.ts';
import { presentVersion } from '../../lists/list-view.ts';

const Count = Type.Integer({ minimum: 0 });
const ListVersionSchema = Type.Object(
  {
    list: Type.String({ description: 'The list code, e.g. OFAC_SDN, UN_SC, BIS_DPL.', examples: ['OFAC_SDN'] }),
    version_id: Type.String({ description: 'The version of the list screenings name in their answers.', examples: ['lv_01j0w1c9v3k6f0m8q2r4t6y8za'] }),
    format: Type.String({ description: 'The source format it was read from.' }),
    published_on: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: 'Publication date given by the source; null when the source gives none (OFAC legacy CSV).' }),
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
  },
  { $id: 'ListVersion' },
);
const ListsSchema = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(Type.Ref('ListVersion')),
  missing: Type.Array(Type.String(), { description: 'Lists the configured sources provide that are not loaded.' }),
  loaded_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When these versions were loaded into memory.' }),
});

const lists: Feature = {
  name: 'lists',
  async register(api, { lists: catalog, readiness }) {
    readiness.add('lists', listsReadiness(catalog));
    api.addSchema(ListVersionSchema);
    api.get(
      '/lists',
      {
        config: { tier: 'defense' },
        schema: {
          tags: ['lists'],
          summary: 'The restricted-party lists screened against',
          description:
            'The active version of each list this service has loaded and screens against: publication date, import time, ' +
            'content hash, counts by type and the change from the previous version, so that a stale list is visible. ' +
            '`missing` names expected lists that are not loaded. The same for every organization.',
          response: { 200: ListsSchema },
        },
      },
      async () => {
        const snapshot = catalog.current();
        const now = new Date();
        return {
          object: 'list' as const,
          data: (snapshot?.versions ?? []).map((version) => presentVersion(version, now)),
          missing: catalog.missing(),
          loaded_at: snapshot?.loadedAt.toISOString() ?? null,
        };
      },
    );
  },
};

export default lists;
