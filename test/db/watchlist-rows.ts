/**
 * Row factories for the watchlist tables (src/features/watchlists/migrations/0048_watchlists.sql),
 * for the row-level security test: a valid row of each for a given organization, the entries and
 * versions under a watchlist of their own organization, made by `parentRow`.
 */
import { newId } from '../../src/ids.ts';

type Row = Record<string, unknown>;

export function watchlistRowFactories(parentRow: (table: string, organizationId: string) => Promise<Row>) {
  const now = () => new Date().toISOString();
  return {
    watchlists: (organizationId: string): Row => ({
      organization_id: organizationId,
      id: newId('wl'),
      slug: `rls-${newId('s').slice(-12)}`,
      name: 'RLS',
      active: true,
      version: 1,
      entry_count: 0,
      created_by: 'test',
      created_at: now(),
      updated_at: now(),
    }),
    watchlist_entries: async (organizationId: string): Promise<Row> => ({
      organization_id: organizationId,
      watchlist_id: (await parentRow('watchlists', organizationId)).id,
      id: newId('wle'),
      type: 'person',
      names: '[{"full":"RLS","kind":"primary"}]',
      dates_of_birth: '[]',
      countries: '[]',
      identifiers: '[]',
      reason: 'RLS',
      severity: 'red',
      added_by: 'test',
      added_at: now(),
      updated_by: 'test',
      updated_at: now(),
      version: 1,
      sha256: 'a'.repeat(64),
    }),
    watchlist_versions: async (organizationId: string): Promise<Row> => ({
      organization_id: organizationId,
      watchlist_id: (await parentRow('watchlists', organizationId)).id,
      version: 1,
      change: 'created',
      added: 0,
      changed: 0,
      removed: 0,
      entry_count: 0,
      entries: '{"added":[],"changed":[],"removed":[]}',
      content_sha256: 'e'.repeat(64),
      actor: 'test',
      created_at: now(),
    }),
  };
}
