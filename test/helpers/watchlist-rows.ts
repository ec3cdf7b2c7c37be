/**
 * An organization's watchlists and entries made through the watchlist service, the code the
 * API's routes and the console call (validation, versions, audit and the change hook included),
 * for tests of what screens against them. The service is called as the tenant, so a test's
 * tenant needs no admin key to set up its watchlists. Several entries added at once are one
 * version (an import, upserting), as a bulk change is.
 */
import type { AuditContext } from '../../src/audit/audit.ts';
import type { EntryBody } from '../../src/features/watchlists/entry-input.ts';
import type { EntryType, Severity } from '../../src/features/watchlists/model.ts';
import type { TestTenant } from './credentials.ts';
import type { TestApp } from './test-app.ts';

export type EntryInput = {
  /** The primary name first, then aliases. */
  names: string[];
  type?: EntryType;
  severity?: Severity;
  reason?: string;
  datesOfBirth?: string[];
  countries?: string[];
  identifiers?: EntryBody['identifiers'];
  /** A past expiry is set after the entry is added, as the API allows (a new entry's must be in the future). */
  expiresAt?: Date | null;
};

const bodyOf = (entry: EntryInput): EntryBody => ({
  type: entry.type ?? 'person',
  name: entry.names[0] as string,
  aliases: entry.names.slice(1),
  dates_of_birth: entry.datesOfBirth ?? [],
  countries: entry.countries ?? [],
  identifiers: entry.identifiers ?? [],
  reason: entry.reason ?? 'Added by a test.',
  severity: entry.severity ?? 'orange',
});

export function watchlistRows(harness: TestApp, tenant: TestTenant) {
  const context: AuditContext = {
    actor: { organizationId: tenant.organizationId, kind: 'api_key', id: tenant.keyId, role: null },
    requestId: null,
    sourceIp: null,
  };
  const service = () => harness.app.services.watchlists;

  /** Sets each expiry the entries ask for: one in the future with the entry, one in the past after it. */
  const expire = async (watchlistId: string, ids: string[], entries: EntryInput[]) => {
    for (const [i, entry] of entries.entries())
      if (entry.expiresAt) await service().updateEntry(context, watchlistId, ids[i] as string, { expires_at: entry.expiresAt.toISOString() });
  };

  return {
    async createWatchlist(fields: { slug: string; name?: string; threshold?: number | null; active?: boolean }): Promise<string> {
      return (await service().create(context, { ...fields, name: fields.name ?? fields.slug })).id;
    },

    /** The new entries' ids, in the order given. */
    async addEntries(watchlistId: string, entries: EntryInput[]): Promise<string[]> {
      if (entries.length === 1) {
        const ids = [(await service().addEntry(context, watchlistId, bodyOf(entries[0] as EntryInput))).id];
        await expire(watchlistId, ids, entries);
        return ids;
      }
      const result = await service().importEntries(
        context,
        watchlistId,
        { format: 'json', bodies: entries.map(bodyOf) },
        { mode: 'upsert', allowShrink: false },
      );
      const added = (await service().version(context, watchlistId, result.version as number)).entries.added;
      const byName = new Map((await service().entriesWithIds(context, watchlistId, added)).map((e) => [e.names[0]?.full, e.id]));
      const ids = entries.map((entry) => byName.get(entry.names[0]) as string);
      await expire(watchlistId, ids, entries);
      return ids;
    },

    /** Replaces an entry's facts with these. */
    changeEntry: async (watchlistId: string, entryId: string, entry: EntryInput) => {
      await service().updateEntry(context, watchlistId, entryId, bodyOf(entry));
    },

    removeEntries: async (watchlistId: string, entryIds: string[]) => {
      for (const id of entryIds) await service().removeEntry(context, watchlistId, id);
    },

    updateWatchlist: async (watchlistId: string, fields: { active?: boolean; threshold?: number | null; slug?: string }) => {
      await service().update(context, watchlistId, fields);
    },

    deleteWatchlist: async (watchlistId: string) => {
      await service().remove(context, watchlistId);
    },
  };
}

export type WatchlistRows = ReturnType<typeof watchlistRows>;
