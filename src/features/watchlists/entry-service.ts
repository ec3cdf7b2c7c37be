/**
 * A watchlist's entries one at a time: added, read, listed, changed and removed (marked: the
 * row stays for the versions that held it). Each change is a version of the watchlist
 * (version-writes.ts); a PATCH that changes nothing, or removing an entry already removed, makes
 * none. An entry's facts are checked as an import's rows are (entry-input.ts).
 */
import type { AuditContext } from '../../audit/audit.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import { AppError } from '../../http/errors.ts';
import { InputChecker } from '../../http/input-checker.ts';
import { newId } from '../../ids.ts';
import { entriesWithIds } from './entries-with-ids.ts';
import { type CleanEntry, cleanEntry, type EntryBody, entryBodyOf } from './entry-input.ts';
import { type EntryWrite, insertEntries, removeEntries, updateEntries } from './entry-writes.ts';
import type { WatchlistEntry } from './model.ts';
import type { WatchlistDeps } from './service-deps.ts';
import { type EntryFilters, findEntry, listEntries, liveEntries, liveEntryWithExternalId } from './store.ts';
import { actorOf, writeVersion } from './version-writes.ts';
import { liveWatchlist, lockedWatchlist } from './watchlist-lookup.ts';

export function createEntryService({ withTenant, changed, clock = () => new Date() }: WatchlistDeps) {
  /** Writes one entry's change as the watchlist's next version, and answers the entry as it stands after it. */
  async function entryVersion(
    trx: TenantTransaction,
    context: AuditContext,
    watchlistId: string,
    what: { added?: EntryWrite; changed?: EntryWrite; removed?: string },
  ): Promise<WatchlistEntry> {
    const at = clock();
    const id = (what.added?.id ?? what.changed?.id ?? what.removed) as string;
    const [change, action] = what.added
      ? (['entries_added', 'watchlist.entry_added'] as const)
      : what.changed
        ? (['entries_changed', 'watchlist.entry_changed'] as const)
        : (['entries_removed', 'watchlist.entry_removed'] as const);
    const entries = { added: what.added ? [id] : [], changed: what.changed ? [id] : [], removed: what.removed ? [id] : [] };
    const writeEntries = async (version: number) => {
      const stamp = { version, actor: actorOf(context), at };
      if (what.added) await insertEntries(trx, context.actor.organizationId, watchlistId, [what.added], stamp);
      if (what.changed) await updateEntries(trx, [what.changed], stamp);
      if (what.removed) await removeEntries(trx, [what.removed], stamp);
    };
    await writeVersion(trx, context, changed, watchlistId, { change, entries, writeEntries, audit: { action, details: { entry_id: id } } }, at);
    return (await findEntry(trx, watchlistId, id)) as WatchlistEntry;
  }

  /** 409 when another entry not removed already has the external id (an upsert could not tell them apart). */
  async function refuseTakenExternalId(trx: TenantTransaction, watchlistId: string, externalId: string | null, pointer: string) {
    const holder = externalId === null ? undefined : await liveEntryWithExternalId(trx, watchlistId, externalId);
    if (holder) {
      throw new AppError('conflict', `Entry ${holder.id} of this watchlist already has the external_id ${externalId}; change that one, or remove it first.`, {
        entry_id: holder.id,
        errors: [{ pointer, detail: 'is taken by another entry', in: 'body' }],
      });
    }
  }

  const existing = async (trx: TenantTransaction, watchlistId: string, id: string) => (await findEntry(trx, watchlistId, id)) ?? entryNotFound(watchlistId, id);

  return {
    async addEntry(context: AuditContext, watchlistId: string, body: EntryBody): Promise<WatchlistEntry> {
      const clean = checked(body, 'entry');
      if (clean.facts.expiresAt && clean.facts.expiresAt <= clock()) {
        throw new AppError('validation_failed', 'A new entry must expire in the future.', {
          errors: [{ pointer: '/expires_at', detail: `${clean.facts.expiresAt.toISOString()} is past`, in: 'body' }],
        });
      }
      return withTenant(context.actor, async (trx) => {
        await lockedWatchlist(trx, watchlistId);
        await refuseTakenExternalId(trx, watchlistId, clean.externalId, '/external_id');
        return entryVersion(trx, context, watchlistId, { added: { id: newId('wle'), ...clean } });
      });
    },

    listEntries: (context: AuditContext, watchlistId: string, filters: EntryFilters, page: { afterId?: string; limit: number }) =>
      withTenant(context.actor, async (trx) => {
        await liveWatchlist(trx, watchlistId);
        return listEntries(trx, watchlistId, filters, { ...page, now: clock() });
      }),

    getEntry: (context: AuditContext, watchlistId: string, id: string) =>
      withTenant(context.actor, async (trx) => {
        await liveWatchlist(trx, watchlistId);
        return existing(trx, watchlistId, id);
      }),

    /** Changes the fields given; the entry is checked whole, as it will stand. */
    async updateEntry(context: AuditContext, watchlistId: string, id: string, patch: Partial<EntryBody>): Promise<WatchlistEntry> {
      return withTenant(context.actor, async (trx) => {
        await lockedWatchlist(trx, watchlistId);
        const entry = await existing(trx, watchlistId, id);
        if (entry.removedAt)
          throw new AppError('conflict', `Entry ${id} was removed; add it again as a new entry.`, { removed_at: entry.removedAt.toISOString() });
        const clean = checked({ ...entryBodyOf(entry), ...patch }, 'entry as changed');
        if (clean.sha256 === entry.sha256 && clean.externalId === entry.externalId) return entry;
        if (clean.externalId !== entry.externalId) await refuseTakenExternalId(trx, watchlistId, clean.externalId, '/external_id');
        return entryVersion(trx, context, watchlistId, { changed: { id, ...clean } });
      });
    },

    /** Marks it removed: it stops matching; it stays readable, with `removed_at`. Removing it again changes nothing. */
    async removeEntry(context: AuditContext, watchlistId: string, id: string): Promise<WatchlistEntry> {
      return withTenant(context.actor, async (trx) => {
        await lockedWatchlist(trx, watchlistId);
        const entry = await existing(trx, watchlistId, id);
        return entry.removedAt ? entry : entryVersion(trx, context, watchlistId, { removed: id });
      });
    },

    /** The entries with these ids, removed ones too (what a version touched, by name); the caller bounds the ids and audits the read. */
    entriesWithIds: (context: AuditContext, watchlistId: string, ids: readonly string[]) =>
      withTenant(context.actor, async (trx) => {
        await liveWatchlist(trx, watchlistId);
        return entriesWithIds(trx, watchlistId, ids);
      }),

    /** Every entry not removed (active and expired), as the import takes them back; the read is the caller's to audit. */
    exportEntries: (context: AuditContext, watchlistId: string) =>
      withTenant(context.actor, async (trx) => {
        await liveWatchlist(trx, watchlistId);
        return (await liveEntries(trx, watchlistId)).map(entryBodyOf);
      }),
  };
}

/** The entry's facts, or 400 naming every problem. */
function checked(body: EntryBody, what: string): CleanEntry {
  const check = new InputChecker();
  const clean = cleanEntry(check, body, '');
  check.refuseIfAny(what);
  return clean as CleanEntry;
}

function entryNotFound(watchlistId: string, id: string): never {
  throw new AppError('not_found', `Watchlist ${watchlistId} has no entry ${id}.`);
}
