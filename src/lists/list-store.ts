/**
 * The list tables, read and written as the database owner. Lists are shared by every
 * organization, so they are not tenant data: src/db/database.ts builds this store with the
 * owner's connection (as it does the operator), and the rest of the service only gets its methods.
 * Writes happen in `inImport`, one transaction per list version, serialized across processes.
 */
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { Schema } from '../db/schema.ts';
import { recordEventForEveryOrganization } from '../events/outbox.ts';
import type { EntityType, ListCode, ListEntity } from '../screening/model.ts';
import type { CountsByType, HashedEntry, ListDiff } from './list-content.ts';
import type { ListVersionTable } from './list-tables.ts';

export type ListVersion = {
  id: string;
  list: ListCode;
  format: string;
  sourceSha256: string;
  contentSha256: string;
  /** YYYY-MM-DD, when the source says (OFAC's legacy files do not). */
  publishedOn: string | null;
  importedAt: Date;
  entityCount: number;
  countsByType: CountsByType;
  previousVersionId: string | null;
  changes: { added: number; removed: number; changed: number };
  files: string[];
  warnings: string[];
};

export type NewListVersion = Omit<ListVersion, 'importedAt' | 'changes'>;

/** What an import sees and does inside its transaction. */
export type ListImportTransaction = {
  activeVersion(list: ListCode): Promise<ListVersion | undefined>;
  /** entry id → entry hash of a version. */
  entryHashes(versionId: string): Promise<Map<string, string>>;
  /** Writes the version, its entries and its changes, and makes it the active one. */
  writeVersion(version: NewListVersion, entries: HashedEntry[], diff: ListDiff): Promise<ListVersion>;
};

export type ListStore = {
  activeVersions(): Promise<ListVersion[]>;
  /** Any version, active or not. */
  version(id: string): Promise<ListVersion | undefined>;
  /** The active version ids, sorted: cheap enough to poll. */
  activeVersionIds(): Promise<string[]>;
  entitiesOf(versionIds: string[]): Promise<ListEntity[]>;
  changesOf(versionId: string): Promise<ListDiff>;
  inImport<T>(fn: (trx: ListImportTransaction) => Promise<T>): Promise<T>;
};

// Any constant works; it only has to be the same for every Gatehouse process.
const IMPORT_LOCK_KEY = 4_731_902_406;
// Rows per INSERT: one jsonb parameter each, so the statement stays small whatever the count.
const INSERT_BATCH = 2_000;

export function createListStore(owner: Kysely<Schema>): ListStore {
  return {
    activeVersions: () => activeVersions(owner),
    version: (id) => versionById(owner, id),
    activeVersionIds: async () =>
      (await owner.selectFrom('list_heads').select('version_id').orderBy('version_id').execute()).map((r) => r.version_id),
    entitiesOf: async (versionIds) => {
      if (versionIds.length === 0) return [];
      const rows = await owner
        .selectFrom('list_entries')
        .select('entity')
        .where('version_id', 'in', versionIds)
        .orderBy('version_id')
        .orderBy('entry_id')
        .execute();
      return rows.map((r) => r.entity as ListEntity);
    },
    changesOf: async (versionId) => {
      const rows = await owner.selectFrom('list_changes').select(['entry_id', 'change']).where('version_id', '=', versionId).orderBy('entry_id').execute();
      const diff: ListDiff = { added: [], removed: [], changed: [] };
      for (const row of rows) diff[row.change].push(row.entry_id);
      return diff;
    },
    inImport: (fn) =>
      owner.transaction().execute(async (trx) => {
        await sql`SELECT pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`.execute(trx);
        return fn(importTransaction(trx));
      }),
  };
}

function importTransaction(trx: Transaction<Schema>): ListImportTransaction {
  return {
    activeVersion: async (list) => (await activeVersions(trx, list))[0],
    entryHashes: async (versionId) => {
      const rows = await trx.selectFrom('list_entries').select(['entry_id', 'entry_sha256']).where('version_id', '=', versionId).execute();
      return new Map(rows.map((r) => [r.entry_id, r.entry_sha256]));
    },
    async writeVersion(version, entries, diff) {
      await trx
        .insertInto('list_versions')
        .values({
          id: version.id,
          list: version.list,
          format: version.format,
          source_sha256: version.sourceSha256,
          content_sha256: version.contentSha256,
          published_on: version.publishedOn,
          entity_count: version.entityCount,
          counts_by_type: JSON.stringify(version.countsByType),
          previous_version_id: version.previousVersionId,
          added_count: diff.added.length,
          removed_count: diff.removed.length,
          changed_count: diff.changed.length,
          files: JSON.stringify(version.files),
          warnings: JSON.stringify(version.warnings),
        })
        .execute();
      for (let start = 0; start < entries.length; start += INSERT_BATCH) {
        const rows = entries.slice(start, start + INSERT_BATCH).map((e) => ({ entry_id: e.entryId, entry_sha256: e.sha256, entity: e.entity }));
        await sql`INSERT INTO list_entries (version_id, entry_id, entry_sha256, entity)
                  SELECT ${version.id}, r.entry_id, r.entry_sha256, r.entity
                    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r (entry_id text, entry_sha256 text, entity jsonb)`.execute(trx);
      }
      const changes = (['added', 'removed', 'changed'] as const).flatMap((change) => diff[change].map((entry_id) => ({ entry_id, change })));
      for (let start = 0; start < changes.length; start += INSERT_BATCH) {
        await sql`INSERT INTO list_changes (version_id, entry_id, change)
                  SELECT ${version.id}, r.entry_id, r.change
                    FROM jsonb_to_recordset(${JSON.stringify(changes.slice(start, start + INSERT_BATCH))}::jsonb) AS r (entry_id text, change text)`.execute(trx);
      }
      await trx
        .insertInto('list_heads')
        .values({ list: version.list, version_id: version.id })
        .onConflict((oc) => oc.column('list').doUpdateSet({ version_id: version.id, activated_at: sql`now()` }))
        .execute();
      const [written] = await activeVersions(trx, version.list);
      if (!written) throw new Error(`list version ${version.id} vanished inside its own transaction`);
      // Committed with the version, or not at all: subscribers hear of exactly the versions that became active.
      await recordEventForEveryOrganization(trx, { type: 'lists.updated', data: listsUpdatedData(written) });
      return written;
    },
  };
}

async function activeVersions(db: Kysely<Schema>, list?: ListCode): Promise<ListVersion[]> {
  let query = db
    .selectFrom('list_heads as h')
    .innerJoin('list_versions as v', 'v.id', 'h.version_id')
    .selectAll('v')
    // node-postgres turns a date into a local-time Date; the text is what we mean.
    .select(sql<string | null>`to_char(v.published_on, 'YYYY-MM-DD')`.as('published'))
    .orderBy('v.list');
  if (list !== undefined) query = query.where('h.list', '=', list);
  return (await query.execute()).map(toVersion);
}

async function versionById(db: Kysely<Schema>, id: string): Promise<ListVersion | undefined> {
  const row = await db
    .selectFrom('list_versions as v')
    .selectAll('v')
    .select(sql<string | null>`to_char(v.published_on, 'YYYY-MM-DD')`.as('published'))
    .where('v.id', '=', id)
    .executeTakeFirst();
  return row && toVersion(row);
}

function toVersion(row: Selectable<ListVersionTable> & { published: string | null }): ListVersion {
  return {
    id: row.id,
    list: row.list,
    format: row.format,
    sourceSha256: row.source_sha256,
    contentSha256: row.content_sha256,
    publishedOn: row.published,
    importedAt: new Date(row.imported_at),
    entityCount: row.entity_count,
    countsByType: row.counts_by_type as Record<EntityType, number>,
    previousVersionId: row.previous_version_id,
    changes: { added: row.added_count, removed: row.removed_count, changed: row.changed_count },
    files: row.files,
    warnings: row.warnings,
  };
}

/** The thin payload of `lists.updated`: which version of which list, and how much changed. */
function listsUpdatedData(version: ListVersion): Record<string, unknown> {
  return {
    list: version.list,
    version_id: version.id,
    previous_version_id: version.previousVersionId,
    published_on: version.publishedOn,
    entity_count: version.entityCount,
    ...version.changes,
  };
}
