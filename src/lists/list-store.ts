/**
 * The list tables, read and written as the database owner. Lists are shared by every
 * organization, so they are not tenant data: src/db/database.ts builds this store with the
 * owner's connection (as it does the operator), and the rest of the service only gets its methods.
 * Versions are written through `staging` (list-staging.ts): in small statements, then activated in
 * one short transaction, serialized across processes. Readers see complete versions only.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { giveWay } from '../background-priority.ts';
import type { Schema } from '../db/schema.ts';
import type { ListEntity } from '../screening/model.ts';
import type { ListDiff } from './list-content.ts';
import { createListStaging, type ListStaging, type StagingOptions } from './list-staging.ts';
import type { ListVersion } from './list-version.ts';
import { activeVersions, entryPages, pagesByEntryId, versionById } from './list-version-rows.ts';
import type { StoredEntry } from './stored-entries.ts';

// What the store answers; its readers name it with the store.
export type { ListVersion } from './list-version.ts';

export type ListStore = {
  activeVersions(): Promise<ListVersion[]>;
  /** Any complete version, active or not. */
  version(id: string): Promise<ListVersion | undefined>;
  /** The active version ids, sorted: cheap enough to poll. */
  activeVersionIds(): Promise<string[]>;
  /**
   * The entries of a complete version as texts (stored-entries.ts): all of them, in pages by entry
   * id with a turn of the event loop between them, or those with these entry ids, in no particular order.
   */
  entryTexts(versionId: string, entryIds?: string[]): Promise<StoredEntry[]>;
  /** The entities with these entry ids in one complete version, in no particular order, read in pages. */
  entriesOf(versionId: string, entryIds: string[]): Promise<ListEntity[]>;
  changesOf(versionId: string): Promise<ListDiff>;
  /** Writing a new version (list-import.ts drives it). */
  staging: ListStaging;
};

/** Entities per paged read: about 3 ms a statement on the embedded database (200 SDN entities, measured). */
const ENTITY_PAGE = 200;
/**
 * Changes per paged read: a year of SDN changes (3,559) read in one statement held the embedded
 * database's thread 10 ms, three times a refresh (the catalog, monitoring, ownership; bench:lists-refresh).
 */
const CHANGE_PAGE = 500;

export function createListStore(owner: Kysely<Schema>, options: StagingOptions): ListStore {
  const completeOf = async (ids: string[]) =>
    ids.length === 0
      ? []
      : (await owner.selectFrom('list_versions').select('id').where('id', 'in', ids).where('complete', '=', true).orderBy('id').execute()).map((r) => r.id);
  /** One column of the entries with these ids, a page a statement with a turn of the event loop between them. */
  const pagesOf = async <T>(versionId: string, entryIds: readonly string[], column: RawBuilder<T>) => {
    const pages: { entry_id: string; value: T }[][] = [];
    for (let start = 0; start < entryIds.length; start += ENTITY_PAGE) {
      if (start > 0) await giveWay();
      pages.push(
        (await owner
          .selectFrom('list_entries')
          .select(['entry_id', column.as('value')])
          .where('version_id', '=', versionId)
          .where('entry_id', 'in', entryIds.slice(start, start + ENTITY_PAGE))
          .execute()) as { entry_id: string; value: T }[],
      );
    }
    return pages;
  };
  return {
    activeVersions: () => activeVersions(owner),
    version: (id) => versionById(owner, id),
    activeVersionIds: async () => (await owner.selectFrom('list_heads').select('version_id').orderBy('version_id').execute()).map((r) => r.version_id),
    entryTexts: async (versionId, entryIds) => {
      const entries: StoredEntry[] = [];
      if ((await completeOf([versionId])).length === 0) return entries;
      if (entryIds) {
        for (const rows of await pagesOf(versionId, entryIds, sql<string>`entity::text`))
          for (const row of rows) entries.push({ entryId: row.entry_id, text: row.value });
      } else {
        for await (const rows of entryPages(owner, versionId, 'entity_text', ENTITY_PAGE))
          for (const row of rows) entries.push({ entryId: row.entry_id, text: row.value as string });
      }
      return entries;
    },
    entriesOf: async (versionId, entryIds) => {
      const entities: ListEntity[] = [];
      if ((await completeOf([versionId])).length === 0) return entities;
      for (const rows of await pagesOf(versionId, entryIds, sql<ListEntity>`entity`)) for (const row of rows) entities.push(row.value);
      return entities;
    },
    changesOf: async (versionId) => {
      const diff: ListDiff = { added: [], removed: [], changed: [] };
      if ((await completeOf([versionId])).length === 0) return diff;
      const pages = pagesByEntryId(
        (after) =>
          owner
            .selectFrom('list_changes')
            .select(['entry_id', 'change'])
            .where('version_id', '=', versionId)
            .where('entry_id', '>', after)
            .orderBy('entry_id')
            .limit(CHANGE_PAGE)
            .execute(),
        CHANGE_PAGE,
      );
      for await (const rows of pages) for (const row of rows) diff[row.change].push(row.entry_id);
      return diff;
    },
    staging: createListStaging(owner, options),
  };
}
