/**
 * Rule versions in the tenant's transaction: appended, never changed; the highest is current.
 */
import { sql } from 'kysely';
import { fromJson } from '../../db/json.ts';
import type { Timestamp } from '../../db/schema.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import { type AdjudicationRules, completeRules, DEFAULT_VERSION, type RulesBody, type VersionedRules } from './rules.ts';

declare module '../../db/schema.ts' {
  interface Schema {
    adjudication_rules: {
      organization_id: string;
      version: number;
      rules: unknown;
      created_by: string;
      request_id: string | null;
      created_at: Timestamp;
    };
  }
}

const columns = ['version', 'rules', 'created_by', 'created_at'] as const;
type Row = { version: number; rules: unknown; created_by: string; created_at: Date };
const toVersioned = (row: Row): VersionedRules => ({
  version: row.version,
  // Completed with today's defaults: a version written before a section existed (clearing_rules) reads as having its default.
  rules: completeRules(fromJson<RulesBody>(row.rules)),
  created_by: row.created_by,
  created_at: new Date(row.created_at).toISOString(),
});

/** The current rules: the latest version, or the defaults (version 0) before any was written. */
export async function currentRules(trx: TenantTransaction): Promise<VersionedRules> {
  const row = await trx.selectFrom('adjudication_rules').select(columns).orderBy('version', 'desc').limit(1).executeTakeFirst();
  return row ? toVersioned(row) : DEFAULT_VERSION;
}

export async function rulesAt(trx: TenantTransaction, version: number): Promise<VersionedRules> {
  if (version === 0) return DEFAULT_VERSION;
  const row = await trx.selectFrom('adjudication_rules').select(columns).where('version', '=', version).executeTakeFirstOrThrow();
  return toVersioned(row);
}

/**
 * Writes the next version. Writers of one organization take turns (a transaction-scoped advisory
 * lock), so two at once get versions n+1 and n+2 rather than one failing on the primary key.
 */
export async function appendRules(
  trx: TenantTransaction,
  organizationId: string,
  rules: AdjudicationRules,
  by: { actor: string; requestId: string | null },
): Promise<VersionedRules> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`adjudication_rules:${organizationId}`}, 0))`.execute(trx);
  const { version } = await currentRules(trx);
  const row = await trx
    .insertInto('adjudication_rules')
    .values({ organization_id: organizationId, version: version + 1, rules: JSON.stringify(rules), created_by: by.actor, request_id: by.requestId })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return toVersioned(row);
}
