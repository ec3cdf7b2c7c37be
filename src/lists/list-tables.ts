/**
 * The list tables as Kysely sees them (src/db/migrations/0006_list_versions.sql and 0040), added to the
 * shared schema by augmentation so that src/db does not need to know their columns.
 */
import type { ColumnType } from 'kysely';
import type { Timestamp } from '../db/schema.ts';

type Json<T> = ColumnType<T, string, string>;

export type ListVersionTable = {
  id: string;
  list: string;
  format: string;
  source_sha256: string;
  content_sha256: string;
  published_on: ColumnType<Date | null, string | null, string | null>;
  imported_at: Timestamp;
  entity_count: number;
  counts_by_type: Json<Record<string, number>>;
  previous_version_id: string | null;
  added_count: number;
  removed_count: number;
  changed_count: number;
  files: Json<string[]>;
  warnings: Json<string[]>;
  /** False while the version is being written (staged): no reader sees it until it is activated. */
  complete: ColumnType<boolean, boolean | undefined, boolean>;
  /** When the import writing an incomplete version last wrote to it; null once complete. */
  staged_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
};

declare module '../db/schema.ts' {
  interface Schema {
    list_versions: ListVersionTable;
    list_entries: { version_id: string; entry_id: string; entry_sha256: string; entity: Json<unknown> };
    list_changes: { version_id: string; entry_id: string; change: 'added' | 'removed' | 'changed' };
    list_heads: { list: string; version_id: string; activated_at: Timestamp };
  }
}
