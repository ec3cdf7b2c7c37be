/**
 * Reading list versions back from their rows, shared by the store's readers and the activation of
 * a staged version. Only complete versions are ever read: an incomplete one is an import still
 * being written (or abandoned by a process that died), and no reader may see it.
 */
import { type Kysely, type Selectable, sql } from 'kysely';
import { giveWay } from '../background-priority.ts';
import type { Schema } from '../db/schema.ts';
import type { EntityType, ListCode } from '../screening/model.ts';
import type { ListVersionTable } from './list-tables.ts';
import type { ListVersion } from './list-version.ts';

/** The active version of each list (or of `list`), by list code. */
export async function activeVersions(db: Kysely<Schema>, list?: ListCode): Promise<ListVersion[]> {
  let query = db
    .selectFrom('list_heads as h')
    .innerJoin('list_versions as v', 'v.id', 'h.version_id')
    .selectAll('v')
    // node-postgres turns a date into a local-time Date; the text is what we mean.
    .select(sql<string | null>`to_char(v.published_on, 'YYYY-MM-DD')`.as('published'))
    // A head only ever points at a complete version (activation moves both in one transaction).
    .where('v.complete', '=', true)
    .orderBy('v.list');
  if (list !== undefined) query = query.where('h.list', '=', list);
  return (await query.execute()).map(toVersion);
}

export async function versionById(db: Kysely<Schema>, id: string): Promise<ListVersion | undefined> {
  const row = await db
    .selectFrom('list_versions as v')
    .selectAll('v')
    .select(sql<string | null>`to_char(v.published_on, 'YYYY-MM-DD')`.as('published'))
    .where('v.id', '=', id)
    .where('v.complete', '=', true)
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

/**
 * A version's rows in pages of `pageSize` by entry id, with a turn of the event loop between pages
 * (`giveWay`): each page is a statement of a few milliseconds, and the embedded database runs it on
 * the service's own thread. `readPage` reads the page after the entry id it is given ('' first).
 */
export async function* pagesByEntryId<Row extends { entry_id: string }>(readPage: (after: string) => Promise<Row[]>, pageSize: number): AsyncGenerator<Row[]> {
  for (let after = ''; ; await giveWay()) {
    const rows = await readPage(after);
    yield rows;
    if (rows.length < pageSize) return;
    after = (rows.at(-1) as Row).entry_id;
  }
}

/** A version's entries (their id, and their hash or the entity's text), in pages (`pagesByEntryId`). */
export function entryPages(
  db: Kysely<Schema>,
  versionId: string,
  column: 'entity_text' | 'entry_sha256',
  pageSize: number,
): AsyncGenerator<{ entry_id: string; value: unknown }[]> {
  return pagesByEntryId(
    (after) =>
      db
        .selectFrom('list_entries')
        // entity_text: the entity as the database prints it, not parsed on the way (stored-entries.ts).
        .select((eb) => ['entry_id', column === 'entity_text' ? sql<string>`entity::text`.as('value') : eb.ref('entry_sha256').as('value')])
        .where('version_id', '=', versionId)
        .where('entry_id', '>', after)
        .orderBy('entry_id')
        .limit(pageSize)
        .execute(),
    pageSize,
  );
}
