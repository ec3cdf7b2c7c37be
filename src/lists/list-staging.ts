/**
 * How a list version is written without holding the database for long: its row first, marked
 * not complete (invisible to every reader), then its entries and its changes in small statements,
 * each its own transaction, then one short activation transaction that marks it complete, moves
 * its list's head and records `lists.updated`. On the embedded database a statement holds the
 * only backend, and the JavaScript thread, while it runs: the batches are sized to a few
 * milliseconds, and the import gives the event loop a turn between them (list-import.ts).
 *
 * A version that never gets activated (its import failed, or its process died) is removed: by its
 * own import when that fails, and otherwise by the next import (`removeAbandoned`).
 */
import { type Kysely, sql } from 'kysely';
import { giveWay } from '../background-priority.ts';
import type { Schema } from '../db/schema.ts';
import { recordEventForEveryOrganization } from '../events/outbox.ts';
import type { ListDiff } from './list-content.ts';
import type { ListVersion, NewListVersion } from './list-version.ts';
import { activeVersions, entryPages } from './list-version-rows.ts';

export type ListStaging = {
  /** entry id → entry hash of a complete version, read in pages. */
  entryHashes(versionId: string): Promise<Map<string, string>>;
  /** Removes the incomplete versions no import is writing any more (see ABANDONED_AFTER). */
  removeAbandoned(): Promise<void>;
  /** Writes the version's row, not complete: no reader sees it. Its changes come with setChanges. */
  begin(version: NewListVersion): Promise<void>;
  /** One batch of entries: a JSON array of {entry_id, entry_sha256, entity} (see prepared-list.ts). */
  addEntries(versionId: string, batch: string): Promise<void>;
  /**
   * Entries of another, complete version (whose rows never change), copied inside the database:
   * what the new version holds unchanged need not travel again. Throws unless each was copied.
   */
  copyEntries(versionId: string, fromVersionId: string, entryIds: readonly string[]): Promise<void>;
  /** What the version changes against `previousVersionId`, replacing what an earlier attempt wrote. */
  setChanges(versionId: string, previousVersionId: string | null, diff: ListDiff): Promise<void>;
  /**
   * Makes the version its list's active one, if the active version is still the one its changes
   * were computed against; otherwise answers the version that is active now.
   */
  activate(versionId: string): Promise<Activation>;
  /** Removes a version that will not be activated, in small statements. */
  discard(versionId: string): Promise<void>;
};

export type Activation = { status: 'activated'; version: ListVersion } | { status: 'moved'; active: ListVersion | undefined };

export type StagingOptions = {
  /**
   * Only this process can write the database (the embedded one): an incomplete version it is not
   * writing itself was abandoned, however recently. On PostgreSQL another process may be writing it.
   */
  soleProcess: boolean;
};

// Any constant works; it only has to be the same for every Gatehouse process.
const IMPORT_LOCK_KEY = 4_731_902_406;
/** An incomplete version no statement has written to for this long was abandoned: a batch takes milliseconds. */
const ABANDONED_AFTER = '10 minutes';
/**
 * Rows per paged read, delete or INSERT of changes: each statement about 3 ms on the embedded
 * database, where it holds the service's thread (measured on the SDN: 1,000 change rows took 22 ms).
 */
const HASH_PAGE = 400;
const DELETE_PAGE = 500;
const CHANGE_BATCH = 100;

export function createListStaging(owner: Kysely<Schema>, options: StagingOptions): ListStaging {
  /** The versions this process is writing now: never abandoned. */
  const writing = new Set<string>();

  /** Deletes an incomplete version's rows of `table` in pages; never a complete version's, whatever went wrong in between. */
  const deleteStaged = async (table: 'list_changes' | 'list_entries', versionId: string) => {
    for (;;) {
      const { numAffectedRows } = await sql`DELETE FROM ${sql.table(table)} WHERE version_id = ${versionId}
          AND EXISTS (SELECT 1 FROM list_versions WHERE id = ${versionId} AND NOT complete)
          AND entry_id IN (SELECT entry_id FROM ${sql.table(table)} WHERE version_id = ${versionId} LIMIT ${DELETE_PAGE})`.execute(owner);
      if (Number(numAffectedRows ?? 0) === 0) return;
      await giveWay();
    }
  };

  const discard = async (versionId: string) => {
    await deleteStaged('list_changes', versionId);
    await deleteStaged('list_entries', versionId);
    await owner.deleteFrom('list_versions').where('id', '=', versionId).where('complete', '=', false).execute();
    writing.delete(versionId);
  };

  return {
    async entryHashes(versionId) {
      const hashes = new Map<string, string>();
      for await (const rows of entryPages(owner, versionId, 'entry_sha256', HASH_PAGE)) for (const row of rows) hashes.set(row.entry_id, row.value as string);
      return hashes;
    },

    async removeAbandoned() {
      const rows = await owner
        .selectFrom('list_versions')
        .select('id')
        .where('complete', '=', false)
        .$if(!options.soleProcess, (q) =>
          q.where((eb) => eb.or([eb('staged_at', 'is', null), eb('staged_at', '<', sql<Date>`now() - ${ABANDONED_AFTER}::interval`)])),
        )
        .execute();
      for (const { id } of rows) {
        if (writing.has(id)) continue;
        // Claimed first: an import that was only paused finds its version gone at its next batch, and stops.
        const [claimed] = await owner.updateTable('list_versions').set({ staged_at: null }).where('id', '=', id).where('complete', '=', false).execute();
        if (Number(claimed?.numUpdatedRows ?? 0) > 0) await discard(id);
      }
    },

    async begin(version) {
      writing.add(version.id);
      await owner
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
          added_count: 0,
          removed_count: 0,
          changed_count: 0,
          files: JSON.stringify(version.files),
          warnings: JSON.stringify(version.warnings),
          complete: false,
          staged_at: sql<Date>`now()`,
        })
        .execute();
    },

    async addEntries(versionId, batch) {
      // Written only while the version is still staged (not claimed as abandoned), which it keeps fresh.
      const { numAffectedRows } = await sql`
        WITH staged AS (UPDATE list_versions SET staged_at = now() WHERE id = ${versionId} AND NOT complete AND staged_at IS NOT NULL RETURNING id)
        INSERT INTO list_entries (version_id, entry_id, entry_sha256, entity)
        SELECT staged.id, r.entry_id, r.entry_sha256, r.entity
          FROM staged, jsonb_to_recordset(${batch}::jsonb) AS r (entry_id text, entry_sha256 text, entity jsonb)`.execute(owner);
      if (Number(numAffectedRows ?? 0) === 0) throw new Error(`list version ${versionId} is no longer staged: another import removed it as abandoned`);
    },

    async copyEntries(versionId, fromVersionId, entryIds) {
      const { numAffectedRows } = await sql`
        WITH staged AS (UPDATE list_versions SET staged_at = now() WHERE id = ${versionId} AND NOT complete AND staged_at IS NOT NULL RETURNING id)
        INSERT INTO list_entries (version_id, entry_id, entry_sha256, entity)
        SELECT staged.id, e.entry_id, e.entry_sha256, e.entity
          FROM staged, list_entries e
         WHERE e.version_id = ${fromVersionId} AND e.entry_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(entryIds)}::jsonb))`.execute(owner);
      const copied = Number(numAffectedRows ?? 0);
      if (copied === 0 && entryIds.length > 0) throw new Error(`list version ${versionId} is no longer staged: another import removed it as abandoned`);
      if (copied !== entryIds.length)
        throw new Error(`list version ${versionId}: ${copied} of ${entryIds.length} entries could be copied from version ${fromVersionId}`);
    },

    async setChanges(versionId, previousVersionId, diff) {
      await deleteStaged('list_changes', versionId); // what an attempt against another version wrote
      const changes = (['added', 'removed', 'changed'] as const).flatMap((change) => diff[change].map((entry_id) => ({ entry_id, change })));
      for (let start = 0; start < changes.length; start += CHANGE_BATCH) {
        await sql`INSERT INTO list_changes (version_id, entry_id, change)
                  SELECT ${versionId}, r.entry_id, r.change
                    FROM jsonb_to_recordset(${JSON.stringify(changes.slice(start, start + CHANGE_BATCH))}::jsonb) AS r (entry_id text, change text)`.execute(
          owner,
        );
        await giveWay();
      }
      await owner
        .updateTable('list_versions')
        .set({
          previous_version_id: previousVersionId,
          added_count: diff.added.length,
          removed_count: diff.removed.length,
          changed_count: diff.changed.length,
          staged_at: sql<Date>`now()`,
        })
        .where('id', '=', versionId)
        .where('complete', '=', false)
        .execute();
    },

    async activate(versionId) {
      const activation = await owner.transaction().execute(async (trx): Promise<Activation> => {
        await sql`SELECT pg_advisory_xact_lock(${IMPORT_LOCK_KEY})`.execute(trx);
        // Locked, so that no removal of abandoned versions claims it between this check and the commit.
        const staged = await trx
          .selectFrom('list_versions')
          .select(['list', 'previous_version_id', 'entity_count', 'staged_at'])
          .where('id', '=', versionId)
          .where('complete', '=', false)
          .forUpdate()
          .executeTakeFirst();
        if (!staged || staged.staged_at === null) throw new Error(`list version ${versionId} is no longer staged: another import removed it as abandoned`);
        const [active] = await activeVersions(trx, staged.list);
        if ((active?.id ?? null) !== staged.previous_version_id) return { status: 'moved', active };
        // Nothing half-written becomes active: every entry the version counts is there.
        const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM list_entries WHERE version_id = ${versionId}`.execute(trx);
        const entries = rows[0]?.n ?? 0;
        if (entries !== staged.entity_count) {
          throw new Error(`list version ${versionId} has ${entries} of its ${staged.entity_count} entries written; it was not activated`);
        }
        await trx.updateTable('list_versions').set({ complete: true, staged_at: null, imported_at: sql<Date>`now()` }).where('id', '=', versionId).execute();
        await trx
          .insertInto('list_heads')
          .values({ list: staged.list, version_id: versionId })
          // activated_at from the inserted row's default: Citus refuses now() in DO UPDATE SET.
          .onConflict((oc) => oc.column('list').doUpdateSet({ version_id: versionId, activated_at: sql.ref('excluded.activated_at') }))
          .execute();
        const [written] = await activeVersions(trx, staged.list);
        if (written?.id !== versionId) throw new Error(`list version ${versionId} vanished inside its own activation`);
        // Committed with the head, or not at all: subscribers hear of exactly the versions that became active.
        await recordEventForEveryOrganization(trx, { type: 'lists.updated', data: listsUpdatedData(written) });
        return { status: 'activated', version: written };
      });
      if (activation.status === 'activated') writing.delete(versionId);
      return activation;
    },

    discard,
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
