/**
 * The keys of current stored determinations (party-keys.ts, migration 0050) in the tenant's
 * transaction. Written at once rather than at commit: a re-evaluation deletes and reads them in
 * the same transaction, which rows waiting for COMMIT would refuse.
 */
import { fromJson } from '../../db/json.ts';
import { insertJsonRows } from '../../db/rows-at-commit.ts';
import { type TenantTransaction, writeNow } from '../../db/tenant.ts';
import type { PartyKey, ScreenedName } from './party-keys.ts';

declare module '../../db/schema.ts' {
  interface Schema {
    ownership_check_parties: { organization_id: string; key: string; check_id: string; names: unknown };
  }
}

/** Rows per statement: one JSON parameter each. */
const ROWS_PER_STATEMENT = 2_000;
/** Keys per look-up: `IN` lists of this many parameters. */
const KEYS_PER_LOOKUP = 1_000;

export async function insertPartyKeys(trx: TenantTransaction, organizationId: string, checkId: string, keys: readonly PartyKey[]) {
  for (let start = 0; start < keys.length; start += ROWS_PER_STATEMENT) {
    const rows = keys.slice(start, start + ROWS_PER_STATEMENT).map(({ key, names }) => ({ organization_id: organizationId, key, check_id: checkId, names }));
    await writeNow(trx, insertJsonRows('ownership_check_parties', rows));
  }
}

/** A superseded determination is no longer looked up: its re-evaluation's keys take its place. */
export async function deletePartyKeys(trx: TenantTransaction, checkId: string) {
  await trx.deleteFrom('ownership_check_parties').where('check_id', '=', checkId).execute();
}

export type KeyedCheck = { key: string; checkId: string; names: ScreenedName[] };

/** The determinations stored under any of these keys, with the names that carry each word. */
export async function checksUnderKeys(trx: TenantTransaction, keys: readonly string[]): Promise<KeyedCheck[]> {
  const found: KeyedCheck[] = [];
  for (let start = 0; start < keys.length; start += KEYS_PER_LOOKUP) {
    const rows = await trx
      .selectFrom('ownership_check_parties')
      .select(['key', 'check_id', 'names'])
      .where('key', 'in', keys.slice(start, start + KEYS_PER_LOOKUP))
      .execute();
    for (const row of rows) found.push({ key: row.key, checkId: row.check_id, names: fromJson<ScreenedName[]>(row.names) });
  }
  return found;
}
