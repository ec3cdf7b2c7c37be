/**
 * The database's tables as Kysely sees them. Each feature adds its own tables from its folder by
 * augmenting this interface (`declare module '…/db/schema.ts' { interface Schema { … } }`), so
 * that adding a feature does not mean editing a central file.
 */
import type { ColumnType } from 'kysely';

// An interface, not a type alias, because only interfaces can be augmented.
export interface Schema {
  organizations: OrganizationTable;
}

export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type OrganizationTable = {
  id: string;
  name: string;
  created_at: Timestamp;
};
