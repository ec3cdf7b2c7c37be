/**
 * Console users in the tenant's transaction, and the two look-ups that come before a tenant is
 * known (an address at sign-in, a token at password setup), through their SECURITY DEFINER
 * functions (migrations/0030_console_users.sql).
 */
import { type ColumnType, sql } from 'kysely';
import type { Timestamp } from '../../../db/schema.ts';
import type { TenantTransaction, WithTenant } from '../../../db/tenant.ts';
import type { Role } from '../../../http/actor.ts';

export type UserState = 'active' | 'disabled';

declare module '../../../db/schema.ts' {
  interface Schema {
    console_users: {
      organization_id: string;
      id: string;
      email: string;
      role: Role;
      state: ColumnType<UserState, UserState | undefined, UserState>;
      password_hash: string | null;
      password_set_at: Date | null;
      setup_token_sha256: string | null;
      setup_expires_at: Date | null;
      failed_sign_ins: ColumnType<number, number | undefined, number>;
      locked_until: Date | null;
      last_sign_in_at: Date | null;
      created_by: string;
      created_at: Timestamp;
      updated_at: Timestamp;
    };
  }
}

export type UserRecord = {
  id: string;
  email: string;
  role: Role;
  state: UserState;
  password_hash: string | null;
  password_set_at: Date | null;
  setup_expires_at: Date | null;
  failed_sign_ins: number;
  locked_until: Date | null;
  last_sign_in_at: Date | null;
  created_by: string;
  created_at: Date;
};

const COLUMNS = [
  'id',
  'email',
  'role',
  'state',
  'password_hash',
  'password_set_at',
  'setup_expires_at',
  'failed_sign_ins',
  'locked_until',
  'last_sign_in_at',
  'created_by',
  'created_at',
] as const;

export type UserChanges = Partial<{
  state: UserState;
  password_hash: string;
  password_set_at: Date;
  setup_token_sha256: string | null;
  setup_expires_at: Date | null;
  failed_sign_ins: number;
  locked_until: Date | null;
  last_sign_in_at: Date;
}>;

export type UserLocation = { organization_id: string; user_id: string };

/** Where the person with this address is, if anywhere: read before any organization is set. */
export async function locateByEmail(withTenant: WithTenant, email: string): Promise<UserLocation | undefined> {
  return withTenant(ANONYMOUS, async (trx) => (await sql<UserLocation>`SELECT * FROM console_user_by_email(${email})`.execute(trx)).rows[0]);
}

/** Where the person a setup token was given to is, if the token is one. */
export async function locateBySetupToken(withTenant: WithTenant, tokenSha256: string): Promise<UserLocation | undefined> {
  return withTenant(ANONYMOUS, async (trx) => (await sql<UserLocation>`SELECT * FROM console_user_by_setup_token(${tokenSha256})`.execute(trx)).rows[0]);
}

/** No organization is set: the look-up functions are all such a transaction can read. */
const ANONYMOUS = { organizationId: '', kind: 'system' as const, id: 'console-sign-in' };

export async function insertUser(
  trx: TenantTransaction,
  row: { organization_id: string; id: string; email: string; role: Role; setup_token_sha256: string; setup_expires_at: Date; created_by: string },
): Promise<UserRecord> {
  return trx.insertInto('console_users').values(row).returning(COLUMNS).executeTakeFirstOrThrow();
}

export const findUser = (trx: TenantTransaction, id: string): Promise<UserRecord | undefined> =>
  trx.selectFrom('console_users').select(COLUMNS).where('id', '=', id).executeTakeFirst();

/** The person's row, locked, if this setup token is still theirs. */
export const lockSetupToken = (trx: TenantTransaction, id: string, tokenSha256: string) =>
  trx.selectFrom('console_users').select('setup_expires_at').where('id', '=', id).where('setup_token_sha256', '=', tokenSha256).forUpdate().executeTakeFirst();

export const findUserByEmail = (trx: TenantTransaction, email: string): Promise<UserRecord | undefined> =>
  trx.selectFrom('console_users').select(COLUMNS).where('email', '=', email.toLowerCase()).executeTakeFirst();

export const listUsers = (trx: TenantTransaction): Promise<UserRecord[]> => trx.selectFrom('console_users').select(COLUMNS).orderBy('email').execute();

export async function updateUser(trx: TenantTransaction, id: string, changes: UserChanges, now: Date): Promise<UserRecord> {
  return trx
    .updateTable('console_users')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

/** One more failed sign-in, counted in the database so that attempts racing each other all count. */
export async function countFailedSignIn(trx: TenantTransaction, id: string, now: Date): Promise<number> {
  const row = await trx
    .updateTable('console_users')
    .set({ failed_sign_ins: sql<number>`failed_sign_ins + 1`, updated_at: now })
    .where('id', '=', id)
    .returning('failed_sign_ins')
    .executeTakeFirstOrThrow();
  return row.failed_sign_ins;
}
