/**
 * The keys of current stored determinations (party-keys.ts, migration 0050) in the tenant's
 * transaction. Written at once rather than at commit: a re-evaluation deletes and reads them in
 * the same transaction, which rows waiting for COMMIT would refuse.
 */
import { sql } from 'kysely';
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
/** Rows per page of a look-up: what a caller holds at a time, however many parties share a word. */
const ROWS_PER_PAGE = 1_000;
/** Keys looked up per statement. */
const KEYS_PER_STATEMENT = 500;

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

/** Whether the organization has a current determination under any key (none: no list version can touch one). */
export async function anyKeyedCheck(trx: TenantTransaction): Promise<boolean> {
  return (await trx.selectFrom('ownership_check_parties').select('check_id').limit(1).executeTakeFirst()) !== undefined;
}

export type KeyedCheck = { checkId: string; names: ScreenedName[] };

/**
 * The determinations stored under any of these keys, with the names that carry each word, a page
 * at a time: the keys KEYS_PER_STATEMENT to a statement, each statement's rows in (key, check id)
 * order (the primary key's), so a caller that works a page before asking for the next holds one
 * page, never every party sharing a word with a version. A statement per key made a year of SDN
 * changes (some 5,000 words) as many statements, which on the embedded database held the
 * service's thread for two seconds (bench:lists-refresh).
 */
export async function* checksUnderKeys(trx: TenantTransaction, keys: readonly string[]): AsyncGenerator<KeyedCheck[]> {
  for (let start = 0; start < keys.length; start += KEYS_PER_STATEMENT) {
    const some = keys.slice(start, start + KEYS_PER_STATEMENT);
    let after: { key: string; check_id: string } | undefined;
    for (;;) {
      const from = after;
      const rows = await trx
        .selectFrom('ownership_check_parties')
        .select(['key', 'check_id', 'names'])
        .where('key', 'in', some)
        .$if(from !== undefined, (q) => q.where(sql<boolean>`(key, check_id) > (${from?.key}, ${from?.check_id})`))
        .orderBy('key')
        .orderBy('check_id')
        .limit(ROWS_PER_PAGE)
        .execute();
      if (rows.length > 0) yield rows.map((row) => ({ checkId: row.check_id, names: fromJson<ScreenedName[]>(row.names) }));
      if (rows.length < ROWS_PER_PAGE) break;
      after = rows.at(-1);
    }
  }
}
