/**
 * One version of a watchlist, written whole in the transaction that makes the change: the
 * watchlist's row moves to its next version (the row lock orders versions: they commit in the
 * order they were numbered, so an index reading "what changed after version n" misses nothing),
 * then the entries are written with that number, then the version's row (what it added, changed
 * and removed, and the SHA-256 of what the watchlist holds after it), the audit event (ids and
 * counts, never names), the `watchlist.changed` event, and the change hook, whose handlers (a
 * monitoring run) share the change's fate.
 */
import { sql } from 'kysely';
import { type AuditContext, recordAudit } from '../../audit/audit.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import { recordEvent } from '../../events/outbox.ts';
import type { WatchlistChangeHook } from './change-hook.ts';
import type { VersionChange, Watchlist } from './model.ts';
import { WATCHLIST_COLUMNS, watchlistOf } from './store.ts';

/** Entry ids, by what a version did to them. */
export type TouchedEntries = { added: string[]; changed: string[]; removed: string[] };

export const NO_ENTRIES: TouchedEntries = { added: [], changed: [], removed: [] };

/** The watchlist's own fields a version sets: on `updated`, those that changed; on `deleted`, when. */
export type WatchlistFields = Partial<Pick<Watchlist, 'slug' | 'name' | 'description' | 'threshold' | 'active'>> & { deletedAt?: Date };

export type VersionPlan = {
  change: VersionChange;
  entries: TouchedEntries;
  fields?: WatchlistFields;
  /** Writes the entries, stamped with the version's number. */
  writeEntries?: (version: number) => Promise<void>;
  /** The audit event's action, and its details besides the version and the counts (ids, never names). */
  audit: { action: string; details?: Record<string, unknown> };
};

/** How the version names who made it: `api_key:<key id>` or `user:<person>`. */
export const actorOf = (context: AuditContext) => `${context.actor.kind}:${context.actor.id}`;

/** Makes the next version of a live watchlist its caller has locked (watchlist-writes.ts); answers the watchlist as it stands after it. */
export async function writeVersion(
  trx: TenantTransaction,
  context: AuditContext,
  changed: WatchlistChangeHook,
  watchlistId: string,
  plan: VersionPlan,
  at: Date,
): Promise<Watchlist> {
  const { entries, fields = {} } = plan;
  const row = await trx
    .updateTable('watchlists')
    .set({
      version: sql<number>`version + 1` as never,
      entry_count: sql<number>`entry_count + ${entries.added.length - entries.removed.length}` as never,
      updated_at: at,
      ...('slug' in fields && { slug: fields.slug }),
      ...('name' in fields && { name: fields.name }),
      ...('description' in fields && { description: fields.description }),
      ...('threshold' in fields && { threshold: fields.threshold }),
      ...('active' in fields && { active: fields.active }),
      ...(fields.deletedAt && { deleted_at: fields.deletedAt }),
    })
    .where('id', '=', watchlistId)
    .where('deleted_at', 'is', null)
    .returning(WATCHLIST_COLUMNS)
    .executeTakeFirstOrThrow();
  const watchlist = watchlistOf(row);
  const { version } = watchlist;
  await plan.writeEntries?.(version);

  const counts = { added: entries.added.length, changed: entries.changed.length, removed: entries.removed.length };
  await trx
    .insertInto('watchlist_versions')
    .values({
      organization_id: context.actor.organizationId,
      watchlist_id: watchlistId,
      version,
      change: plan.change,
      ...counts,
      entry_count: watchlist.entryCount,
      entries: JSON.stringify(entries),
      content_sha256: await contentSha256(trx, watchlistId),
      actor: actorOf(context),
      request_id: context.requestId,
      created_at: at,
    })
    .execute();
  recordAudit(trx, context, {
    action: plan.audit.action,
    target: { type: 'watchlist', id: watchlistId },
    details: { version, change: plan.change, ...counts, entry_count: watchlist.entryCount, ...plan.audit.details },
  });
  recordEvent(trx, context.actor.organizationId, {
    type: 'watchlist.changed',
    data: { watchlist_id: watchlistId, slug: watchlist.slug, version, change: plan.change, ...counts, entry_count: watchlist.entryCount },
    ...(context.requestId && { requestId: context.requestId }),
  });
  await changed.run(trx, context, { watchlistId, slug: watchlist.slug, version, change: plan.change, ...entries });
  return watchlist;
}

/**
 * What the watchlist holds, as one SHA-256: of the lines `<entry id>:<entry sha256>`, one per
 * entry not removed, in id order, joined by line feeds. Computed where the rows are, so a change
 * to a watchlist of 100,000 entries does not carry them all to the service.
 */
async function contentSha256(trx: TenantTransaction, watchlistId: string): Promise<string> {
  const { rows } = await sql<{ sha: string }>`
    SELECT encode(sha256(convert_to(coalesce(string_agg(id || ':' || sha256, chr(10) ORDER BY id COLLATE "C"), ''), 'UTF8')), 'hex') AS sha
      FROM watchlist_entries WHERE watchlist_id = ${watchlistId} AND removed_at IS NULL`.execute(trx);
  return rows[0]?.sha as string;
}
