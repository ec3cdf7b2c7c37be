/**
 * The list tables as Kysely sees them (src/db/migrations/0006_list_versions.sql, 0041_list_source_checks.sql,
 * 0042_list_versions_staged.sql), added to the shared schema by augmentation so that src/db does not need to know
 * their columns.
 */
import type { ColumnType } from 'kysely';
import type { Timestamp } from '../db/schema.ts';

type Json<T> = ColumnType<T, string, string>;

/** What a publisher said about a file it served: sent back as If-None-Match / If-Modified-Since. */
export type FileValidators = { etag?: string; last_modified?: string; sha256: string };

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
    list_heads: { list: string; version_id: string; activated_at: Timestamp; confirmed_at: Timestamp; stale_since: Timestamp | null };
    list_source_checks: {
      source: string;
      last_attempt_at: Timestamp | null;
      last_success_at: Timestamp | null;
      consecutive_failures: number;
      last_error: string | null;
      validators: Json<Record<string, FileValidators>>;
      version_ids: Json<string[]>;
      failing_since: Timestamp | null;
    };
    list_refresh_lease: { name: string; holder: string; expires_at: Timestamp };
  }
}
