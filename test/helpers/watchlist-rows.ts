/**
 * An organization's watchlists and entries written as migration 0048 defines them, for tests of
 * what screens against them until the watchlist routes exist: each change in one tenant
 * transaction (row-level security applies), under the watchlist row's lock, moving its version
 * and giving each entry it touches that version, with a version row, and the change hook run
 * before commit, as the watchlist service will. To be replaced by the routes.
 */
import type { AuditContext } from '../../src/audit/audit.ts';
import { canonicalJson } from '../../src/canonical-json.ts';
import type { TenantTransaction } from '../../src/db/tenant.ts';
import type { EntryIdentifier, EntryType, Severity } from '../../src/features/watchlists/model.ts';
import { newId } from '../../src/ids.ts';
import { sha256Hex } from '../../src/sha256.ts';
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
  identifiers?: EntryIdentifier[];
  expiresAt?: Date | null;
};

type Change = { change: string; added?: string[]; changed?: string[]; removed?: string[] };

const entryFacts = (entry: EntryInput) => ({
  type: entry.type ?? 'person',
  names: entry.names.map((full, i) => ({ full, kind: i === 0 ? 'primary' : 'strong_alias' })),
  dates_of_birth: entry.datesOfBirth ?? [],
  countries: entry.countries ?? [],
  identifiers: entry.identifiers ?? [],
  reason: entry.reason ?? 'Added by a test.',
  severity: entry.severity ?? 'orange',
  expires_at: entry.expiresAt ?? null,
});

const jsonFacts = (facts: ReturnType<typeof entryFacts>) => ({
  ...facts,
  names: JSON.stringify(facts.names),
  dates_of_birth: JSON.stringify(facts.dates_of_birth),
  countries: JSON.stringify(facts.countries),
  identifiers: JSON.stringify(facts.identifiers),
});

export function watchlistRows(harness: TestApp, tenant: TestTenant) {
  const context: AuditContext = {
    actor: { organizationId: tenant.organizationId, kind: 'api_key', id: tenant.keyId, role: null },
    requestId: null,
    sourceIp: null,
  };
  const by = `api_key:${tenant.keyId}`;
  const inTenant = <T>(fn: (trx: TenantTransaction) => Promise<T>) => harness.database.db.withTenant(context.actor, fn);

  /** Moves the watchlist to its next version under its row's lock, runs `write`, records the version, and runs the change hook. */
  async function version(watchlistId: string, write: (trx: TenantTransaction, version: number, now: Date) => Promise<Change>): Promise<number> {
    return inTenant(async (trx) => {
      const now = new Date();
      const row = await trx.selectFrom('watchlists').select('version').where('id', '=', watchlistId).forUpdate().executeTakeFirstOrThrow();
      const next = row.version + 1;
      const change = await write(trx, next, now);
      const live = await trx
        .selectFrom('watchlist_entries')
        .select(['id', 'sha256'])
        .where('watchlist_id', '=', watchlistId)
        .where('removed_at', 'is', null)
        .orderBy('id')
        .execute();
      await trx.updateTable('watchlists').set({ version: next, entry_count: live.length, updated_at: now }).where('id', '=', watchlistId).execute();
      const entries = { added: change.added ?? [], changed: change.changed ?? [], removed: change.removed ?? [] };
      await trx
        .insertInto('watchlist_versions')
        .values({
          organization_id: tenant.organizationId,
          watchlist_id: watchlistId,
          version: next,
          change: change.change,
          added: entries.added.length,
          changed: entries.changed.length,
          removed: entries.removed.length,
          entry_count: live.length,
          entries: JSON.stringify(entries),
          content_sha256: sha256Hex(canonicalJson(live.map((e) => [e.id, e.sha256]))),
          actor: by,
          request_id: null,
          created_at: now,
        })
        .execute();
      const slug = (await trx.selectFrom('watchlists').select('slug').where('id', '=', watchlistId).executeTakeFirstOrThrow()).slug;
      await harness.app.services.watchlistChanged.run(trx, context, { watchlistId, slug, version: next, ...entries });
      return next;
    });
  }

  return {
    async createWatchlist(fields: { slug: string; name?: string; threshold?: number | null; active?: boolean }): Promise<string> {
      const id = newId('wl');
      const now = new Date();
      await inTenant(async (trx) => {
        await trx
          .insertInto('watchlists')
          .values({
            organization_id: tenant.organizationId,
            id,
            slug: fields.slug,
            name: fields.name ?? fields.slug,
            description: null,
            threshold: fields.threshold ?? null,
            active: fields.active ?? true,
            version: 0,
            entry_count: 0,
            created_by: by,
            created_at: now,
            updated_at: now,
            deleted_at: null,
          })
          .execute();
      });
      await version(id, async () => ({ change: 'created' }));
      return id;
    },

    async addEntries(watchlistId: string, entries: EntryInput[]): Promise<string[]> {
      const ids = entries.map(() => newId('wle'));
      await version(watchlistId, async (trx, next, now) => {
        await trx
          .insertInto('watchlist_entries')
          .values(
            entries.map((entry, i) => {
              const facts = entryFacts(entry);
              return {
                organization_id: tenant.organizationId,
                watchlist_id: watchlistId,
                id: ids[i] as string,
                external_id: null,
                ...jsonFacts(facts),
                added_by: by,
                added_at: now,
                updated_by: by,
                updated_at: now,
                removed_at: null,
                version: next,
                sha256: sha256Hex(canonicalJson(facts)),
              };
            }),
          )
          .execute();
        return { change: 'entries_added', added: ids };
      });
      return ids;
    },

    /** Replaces an entry's facts with these. */
    changeEntry: (watchlistId: string, entryId: string, entry: EntryInput) =>
      version(watchlistId, async (trx, next, now) => {
        const facts = entryFacts(entry);
        await trx
          .updateTable('watchlist_entries')
          .set({ ...jsonFacts(facts), updated_by: by, updated_at: now, version: next, sha256: sha256Hex(canonicalJson(facts)) })
          .where('id', '=', entryId)
          .execute();
        return { change: 'entries_changed', changed: [entryId] };
      }),

    removeEntries: (watchlistId: string, entryIds: string[]) =>
      version(watchlistId, async (trx, next, now) => {
        await trx
          .updateTable('watchlist_entries')
          .set({ removed_at: now, updated_by: by, updated_at: now, version: next })
          .where('id', 'in', entryIds)
          .execute();
        return { change: 'entries_removed', removed: entryIds };
      }),

    updateWatchlist: (watchlistId: string, fields: { active?: boolean; threshold?: number | null; slug?: string }) =>
      version(watchlistId, async (trx) => {
        await trx.updateTable('watchlists').set(fields).where('id', '=', watchlistId).execute();
        return { change: 'updated' };
      }),

    deleteWatchlist: (watchlistId: string) =>
      version(watchlistId, async (trx, _next, now) => {
        await trx.updateTable('watchlists').set({ deleted_at: now }).where('id', '=', watchlistId).execute();
        return { change: 'deleted' };
      }),
  };
}

export type WatchlistRows = ReturnType<typeof watchlistRows>;
