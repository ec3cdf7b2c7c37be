/**
 * An API key as callers see it, from the HTTP API and the CLI alike: never the key itself or its
 * hash, and `admin` rather than the stored scope.
 */
import type { KeyRecord } from './api-key-store.ts';

export function presentKey(record: KeyRecord) {
  return {
    object: 'api_key' as const,
    id: record.id,
    name: record.name,
    environment: record.environment,
    admin: record.scope === 'admin',
    state: record.state,
    display_prefix: record.display_prefix,
    created_by: record.created_by,
    created_at: record.created_at.toISOString(),
    state_changed_at: record.state_changed_at?.toISOString() ?? null,
    last_used_at: record.last_used_at?.toISOString() ?? null,
  };
}
