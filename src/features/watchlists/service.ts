/**
 * An organization's watchlists: created, read, changed and deleted (softly: a deleted watchlist
 * matches nothing and answers 404, its history stays and its slug is free again), and their
 * versions read back. Every change is a version (version-writes.ts); a change that changes
 * nothing makes none. With them, the entries (entry-service.ts) and imports (import-service.ts).
 */
import type { AuditContext } from '../../audit/audit.ts';
import { AppError } from '../../http/errors.ts';
import { newId } from '../../ids.ts';
import { createEntryService } from './entry-service.ts';
import { createImportService } from './import-service.ts';
import type { Watchlist, WatchlistVersion } from './model.ts';
import type { WatchlistDeps } from './service-deps.ts';
import { findVersion, listVersions, listWatchlists, type VersionSummary } from './store.ts';
import { actorOf, NO_ENTRIES, type WatchlistFields, writeVersion } from './version-writes.ts';
import { liveWatchlist, lockedWatchlist } from './watchlist-lookup.ts';
import { insertWatchlist } from './watchlist-writes.ts';

export type WatchlistInput = { slug: string; name: string; description?: string | null; threshold?: number | null; active?: boolean };
export type WatchlistUpdate = Partial<WatchlistInput>;

/** The watchlists, their entries and their imports, as the routes (and the console) use them. */
export function createWatchlistService(deps: WatchlistDeps) {
  const { withTenant, changed, clock = () => new Date() } = deps;
  /** The slug is taken by another live watchlist: the unique index said so, and the transaction is gone. */
  const slugTaken = (error: unknown, slug: string | undefined): never => {
    if ((error as { code?: string }).code !== '23505' || slug === undefined) throw error;
    throw new AppError('conflict', `The organization already has a watchlist with the slug ${slug}; choose another, or delete that one first.`, { slug });
  };

  return {
    ...createEntryService(deps),
    ...createImportService(deps),

    async create(context: AuditContext, input: WatchlistInput): Promise<Watchlist> {
      try {
        return await withTenant(context.actor, async (trx) => {
          const at = clock();
          const id = newId('wl', at.getTime());
          const { slug, name, description = null, threshold = null, active = true } = input;
          await insertWatchlist(trx, context.actor.organizationId, { id, slug, name, description, threshold, active, createdBy: actorOf(context) }, at);
          const audit = { action: 'watchlist.created', details: { slug, active, threshold } };
          return writeVersion(trx, context, changed, id, { change: 'created', entries: NO_ENTRIES, audit }, at);
        });
      } catch (error) {
        return slugTaken(error, input.slug);
      }
    },

    list: (context: AuditContext, filters: { active?: boolean }, page: { afterId?: string; limit: number }) =>
      withTenant(context.actor, (trx) => listWatchlists(trx, filters, page.afterId, page.limit)),

    get: (context: AuditContext, id: string) => withTenant(context.actor, (trx) => liveWatchlist(trx, id)),

    async update(context: AuditContext, id: string, update: WatchlistUpdate): Promise<Watchlist> {
      try {
        return await withTenant(context.actor, async (trx) => {
          const current = await lockedWatchlist(trx, id);
          const fields: WatchlistFields = Object.fromEntries(
            Object.entries(update).filter(([key, value]) => value !== undefined && current[key as keyof WatchlistUpdate] !== value),
          );
          if (Object.keys(fields).length === 0) return current;
          const audit = { action: 'watchlist.updated', details: { fields: Object.keys(fields).sort(), slug: fields.slug ?? current.slug } };
          return writeVersion(trx, context, changed, id, { change: 'updated', entries: NO_ENTRIES, fields, audit }, clock());
        });
      } catch (error) {
        return slugTaken(error, update.slug);
      }
    },

    /** Deletes it softly: it stops matching at once; its entries and versions stay, and its slug is free for another. */
    async remove(context: AuditContext, id: string): Promise<Watchlist> {
      return withTenant(context.actor, async (trx) => {
        const current = await lockedWatchlist(trx, id);
        const at = clock();
        const audit = { action: 'watchlist.deleted', details: { slug: current.slug } };
        return writeVersion(trx, context, changed, id, { change: 'deleted', entries: NO_ENTRIES, fields: { deletedAt: at }, audit }, at);
      });
    },

    versions: (context: AuditContext, id: string, page: { beforeVersion?: number; limit: number }): Promise<VersionSummary[]> =>
      withTenant(context.actor, async (trx) => {
        await liveWatchlist(trx, id);
        return listVersions(trx, id, page.beforeVersion, page.limit);
      }),

    version: (context: AuditContext, id: string, version: number): Promise<WatchlistVersion> =>
      withTenant(context.actor, async (trx) => {
        await liveWatchlist(trx, id);
        const found = await findVersion(trx, id, version);
        if (!found) throw new AppError('not_found', `Watchlist ${id} has no version ${version}.`);
        return found;
      }),
  };
}

export type WatchlistService = ReturnType<typeof createWatchlistService>;
