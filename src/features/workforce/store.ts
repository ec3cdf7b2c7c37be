/**
 * Workforce profiles and syncs in the tenant's transaction.
 */
import { fromJson } from '../../db/json.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import type { Profile } from './profile-input.ts';

declare module '../../db/schema.ts' {
  interface Schema {
    workforce_profiles: {
      organization_id: string;
      id: string;
      external_id: string;
      status: 'active' | 'inactive';
      profile: unknown;
      screened_sha256: string;
      profile_sha256: string;
      latest_screening_id: string | null;
      latest_outcome: 'clear' | 'potential_match' | null;
      screened_at: Date | string | null;
      case_id: string | null;
      last_sync_id: string;
      created_at: Date | string;
      updated_at: Date | string;
    };
    workforce_syncs: {
      organization_id: string;
      id: string;
      mode: 'upsert' | 'full';
      status: 'running' | 'completed' | 'failed';
      counts: unknown;
      actor: string;
      request_id: string | null;
      started_at: Date | string;
      finished_at: Date | string | null;
    };
  }
}

export type SyncCounts = {
  created: number;
  updated: number;
  unchanged: number;
  deactivated: number;
  screened: number;
  potential_matches: number;
  cases_opened: number;
};
export type SyncRow = {
  id: string;
  mode: 'upsert' | 'full';
  status: 'running' | 'completed' | 'failed';
  counts: SyncCounts;
  actor: string;
  request_id: string | null;
  started_at: Date;
  finished_at: Date | null;
};
export type ProfileRow = {
  id: string;
  external_id: string;
  status: 'active' | 'inactive';
  profile: Profile;
  latest_screening_id: string | null;
  latest_outcome: 'clear' | 'potential_match' | null;
  case_id: string | null;
  last_sync_id: string;
  created_at: Date;
  updated_at: Date;
};
export type KnownProfile = { id: string; status: 'active' | 'inactive'; screened_sha256: string; profile_sha256: string };

/** Rows per INSERT: 13 parameters each. */
const INSERT_BATCH = 1_000;

export async function insertSync(trx: TenantTransaction, organizationId: string, sync: SyncRow): Promise<void> {
  await trx
    .insertInto('workforce_syncs')
    .values({ ...sync, organization_id: organizationId, counts: JSON.stringify(sync.counts) })
    .execute();
}

export async function finishSync(trx: TenantTransaction, id: string, status: 'completed' | 'failed', counts: SyncCounts, at: Date): Promise<void> {
  await trx
    .updateTable('workforce_syncs')
    .set({ status, counts: JSON.stringify(counts), finished_at: at })
    .where('id', '=', id)
    .execute();
}

export async function findSync(trx: TenantTransaction, id: string): Promise<SyncRow | undefined> {
  const row = await trx
    .selectFrom('workforce_syncs')
    .select(['id', 'mode', 'status', 'counts', 'actor', 'request_id', 'started_at', 'finished_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return (
    row && {
      ...row,
      counts: fromJson<SyncCounts>(row.counts),
      started_at: new Date(row.started_at),
      finished_at: row.finished_at === null ? null : new Date(row.finished_at),
    }
  );
}

/** Every profile of the organization by external id, with what a sync compares. */
export async function knownProfiles(trx: TenantTransaction): Promise<Map<string, KnownProfile>> {
  const rows = await trx.selectFrom('workforce_profiles').select(['id', 'external_id', 'status', 'screened_sha256', 'profile_sha256']).execute();
  return new Map(rows.map(({ external_id: externalId, ...known }) => [externalId, known]));
}

export type ProfileWrite = {
  id: string;
  external_id: string;
  status: 'active' | 'inactive';
  profile: Profile;
  screened_sha256: string;
  profile_sha256: string;
  /** Only when this write screened the profile. */
  screening?: { id: string; outcome: 'clear' | 'potential_match'; case_id: string | null };
  last_sync_id: string;
  at: Date;
};

export async function insertProfiles(trx: TenantTransaction, organizationId: string, writes: ProfileWrite[]): Promise<void> {
  for (let at = 0; at < writes.length; at += INSERT_BATCH) {
    await trx
      .insertInto('workforce_profiles')
      .values(
        writes.slice(at, at + INSERT_BATCH).map((w) => ({
          organization_id: organizationId,
          id: w.id,
          external_id: w.external_id,
          status: w.status,
          profile: JSON.stringify(w.profile),
          screened_sha256: w.screened_sha256,
          profile_sha256: w.profile_sha256,
          latest_screening_id: w.screening?.id ?? null,
          latest_outcome: w.screening?.outcome ?? null,
          screened_at: w.screening ? w.at : null,
          case_id: w.screening?.case_id ?? null,
          last_sync_id: w.last_sync_id,
          created_at: w.at,
          updated_at: w.at,
        })),
      )
      .execute();
  }
}

export async function updateProfile(trx: TenantTransaction, w: ProfileWrite): Promise<void> {
  await trx
    .updateTable('workforce_profiles')
    .set({
      status: w.status,
      profile: JSON.stringify(w.profile),
      screened_sha256: w.screened_sha256,
      profile_sha256: w.profile_sha256,
      ...(w.screening && { latest_screening_id: w.screening.id, latest_outcome: w.screening.outcome, screened_at: w.at, case_id: w.screening.case_id }),
      last_sync_id: w.last_sync_id,
      updated_at: w.at,
    })
    .where('id', '=', w.id)
    .execute();
}

/** After a re-screen that found something: the profile's latest screening and case (it was not screened in full, so screened_at stays). */
export async function recordRescreen(
  trx: TenantTransaction,
  id: string,
  screening: { id: string; outcome: 'clear' | 'potential_match'; case_id: string | null },
  at: Date,
): Promise<void> {
  await trx
    .updateTable('workforce_profiles')
    .set({ latest_screening_id: screening.id, latest_outcome: screening.outcome, case_id: screening.case_id, updated_at: at })
    .where('id', '=', id)
    .execute();
}

export async function deactivateProfiles(trx: TenantTransaction, ids: string[], syncId: string, at: Date): Promise<void> {
  if (ids.length === 0) return;
  await trx.updateTable('workforce_profiles').set({ status: 'inactive', last_sync_id: syncId, updated_at: at }).where('id', 'in', ids).execute();
}

const PROFILE_COLUMNS = [
  'id',
  'external_id',
  'status',
  'profile',
  'latest_screening_id',
  'latest_outcome',
  'case_id',
  'last_sync_id',
  'created_at',
  'updated_at',
] as const;

export type ProfileFilters = { status?: 'active' | 'inactive'; outcome?: 'clear' | 'potential_match'; externalId?: string };

/** By id (creation order); `afterId` continues after the last profile of the page before. */
export async function listProfiles(trx: TenantTransaction, filters: ProfileFilters, afterId: string | undefined, limit: number): Promise<ProfileRow[]> {
  let query = trx.selectFrom('workforce_profiles').select(PROFILE_COLUMNS);
  if (filters.status) query = query.where('status', '=', filters.status);
  if (filters.outcome) query = query.where('latest_outcome', '=', filters.outcome);
  if (filters.externalId) query = query.where('external_id', '=', filters.externalId);
  if (afterId) query = query.where('id', '>', afterId);
  const rows = await query.orderBy('id').limit(limit).execute();
  return rows.map((row) => ({ ...row, profile: fromJson<Profile>(row.profile), created_at: new Date(row.created_at), updated_at: new Date(row.updated_at) }));
}
