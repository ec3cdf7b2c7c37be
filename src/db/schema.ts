/**
 * The database's tables as Kysely sees them. Each feature adds its own tables from its folder by
 * augmenting this interface (`declare module '…/db/schema.ts' { interface Schema { … } }`), so
 * that adding a feature does not mean editing a central file.
 */
import type { ColumnType } from 'kysely';

// An interface, not a type alias, because only interfaces can be augmented.
export interface Schema {
  organizations: OrganizationTable;
  service_secrets: { name: string; value: string; created_at: Timestamp };
  revoked_tokens: { organization_id: string; jti_hash: Buffer; expires_at: Date; revoked_at: Timestamp };
}

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type Tier = 'defense' | 'enterprise';

export type OrganizationTable = {
  id: string;
  name: string;
  tier: ColumnType<Tier, Tier | undefined, Tier>;
  state: ColumnType<'active' | 'suspended', 'active' | 'suspended' | undefined, 'active' | 'suspended'>;
  session_max_seconds: ColumnType<number, number | undefined, number>;
  rate_limit_per_second: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: Timestamp;
};
