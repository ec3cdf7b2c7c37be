/**
 * API keys in the database. Look-ups by hash go through `authenticate_api_key`, the one function
 * that reads across organizations, before any organization is known; everything else runs in the
 * organization's tenant transaction.
 */
import { type ColumnType, type Kysely, sql } from 'kysely';
import type { Schema, Tier, Timestamp } from '../db/schema.ts';
import type { TenantTransaction } from '../db/tenant.ts';
import type { KeyEnvironment } from './api-key-format.ts';

export type KeyState = 'active' | 'disabled' | 'revoked';
export type KeyScope = 'standard' | 'admin';

declare module '../db/schema.ts' {
  interface Schema {
    api_keys: {
      organization_id: string;
      id: string;
      name: string;
      environment: KeyEnvironment;
      scope: KeyScope;
      display_prefix: string;
      secret_hash: Buffer;
      state: ColumnType<KeyState, KeyState | undefined, KeyState>;
      created_by: string;
      created_at: Timestamp;
      state_changed_at: ColumnType<Date | null, undefined, Date | null>;
      last_used_at: ColumnType<Date | null, undefined, Date | null>;
    };
  }
}

export type KeyRecord = {
  id: string;
  name: string;
  environment: KeyEnvironment;
  scope: KeyScope;
  display_prefix: string;
  state: KeyState;
  created_by: string;
  created_at: Date;
  state_changed_at: Date | null;
  last_used_at: Date | null;
};

const RECORD_COLUMNS = [
  'id',
  'name',
  'environment',
  'scope',
  'display_prefix',
  'state',
  'created_by',
  'created_at',
  'state_changed_at',
  'last_used_at',
] as const;

export type KeyInsert = Omit<KeyRecord, 'state' | 'created_at' | 'state_changed_at' | 'last_used_at'> & {
  organization_id: string;
  secret_hash: Buffer;
};

export async function insertKey(trx: TenantTransaction, key: KeyInsert): Promise<KeyRecord> {
  return trx.insertInto('api_keys').values(key).returning(RECORD_COLUMNS).executeTakeFirstOrThrow();
}

export async function findKey(trx: TenantTransaction, id: string): Promise<KeyRecord | undefined> {
  return trx.selectFrom('api_keys').select(RECORD_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export async function listKeys(trx: TenantTransaction, page: { limit: number; after?: string }): Promise<KeyRecord[]> {
  let query = trx.selectFrom('api_keys').select(RECORD_COLUMNS).orderBy('id').limit(page.limit);
  if (page.after) query = query.where('id', '>', page.after);
  return query.execute();
}

export async function setKeyState(trx: TenantTransaction, id: string, state: KeyState): Promise<KeyRecord | undefined> {
  return trx
    .updateTable('api_keys')
    .set({ state, state_changed_at: sql<Date>`now()` as never })
    .where('id', '=', id)
    .returning(RECORD_COLUMNS)
    .executeTakeFirst();
}

export async function touchKey(trx: TenantTransaction, id: string) {
  await trx
    .updateTable('api_keys')
    .set({ last_used_at: sql<Date>`now()` as never })
    .where('id', '=', id)
    .execute();
}

export type KeyAuthentication = {
  organization_id: string;
  key_id: string;
  key_state: KeyState;
  scope: KeyScope;
  environment: KeyEnvironment;
  tier: Tier;
  organization_state: 'active' | 'suspended';
  rate_limit_per_second: number | null;
  last_used_at: Date | null;
};

/**
 * The key with this hash, whichever organization holds it, with what authentication needs: one
 * statement, through `authenticate_api_key` (SECURITY DEFINER, the one function that reads across
 * organizations). It runs on the owner's connection outside any tenant transaction: before the
 * caller is known there is no organization to wall in, and a tenant transaction around this one
 * fixed statement cost every request four more round trips (begin, role and settings, commit).
 */
export function createKeyLookup(owner: Kysely<Schema>) {
  return async (hash: Buffer): Promise<KeyAuthentication | undefined> => {
    // Named columns rather than `*`, so that the statement is prepared once per connection (see db/prepared-statements.ts).
    const { rows } = await sql<KeyAuthentication>`SELECT organization_id, key_id, key_state, scope, environment, tier, organization_state,
                                                          rate_limit_per_second, last_used_at
                                                     FROM authenticate_api_key(${hash})`.execute(owner);
    return rows[0];
  };
}
