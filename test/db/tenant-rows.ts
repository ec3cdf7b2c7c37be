/**
 * A valid row of each tenant table for a given organization, for the row-level security test
 * (test/db/row-level-security.test.ts), which fails for a tenant table without one: add one for
 * every new table. Rows a foreign key needs are inserted first, as the owner, by `parentRow`.
 */
import { generateApiKey, hashApiKey } from '../../src/auth/api-key-format.ts';
import { newId } from '../../src/ids.ts';
import { watchlistRowFactories } from './watchlist-rows.ts';

export type Row = Record<string, unknown>;
export type RowFactory = (organizationId: string) => Row | Promise<Row>;

/** What the factories need of the test's database: a statement as the owner, and a row inserted as the owner. */
export type OwnerAccess = {
  owner(statement: string, parameters: unknown[]): Promise<unknown>;
  insertAsOwner(table: string, row: Row): Promise<void>;
};

export function tenantRowFactories({ owner, insertAsOwner }: OwnerAccess) {
  /** Inserts a fresh row of `table` for the organization (as the owner) and returns it: the parent a foreign key needs. */
  async function parentRow(table: string, organizationId: string): Promise<Row> {
    const row = await (factories[table] as (organizationId: string) => Row | Promise<Row>)(organizationId);
    await insertAsOwner(table, row);
    return row;
  }

  /** A valid row of each tenant table for a given organization. Add one for every new table. */
  const factories: Record<string, RowFactory> = {
    audit_events: (organizationId) => ({
      organization_id: organizationId,
      seq: Math.floor(Math.random() * 1e9) + 1,
      occurred_at: new Date().toISOString(),
      actor_type: 'system',
      actor_id: 'rls',
      action: 'rls.checked',
      outcome: 'success',
      prev_hash: Buffer.alloc(32),
      hash: Buffer.alloc(32),
    }),
    revoked_tokens: (organizationId) => ({
      organization_id: organizationId,
      jti_hash: hashApiKey(newId('jti')),
      expires_at: new Date(Date.now() + 3_600_000).toISOString(),
    }),
    audit_heads: (organizationId) => ({ organization_id: organizationId, seq: 0, hash: Buffer.alloc(32) }),
    // One row per organization, already there once the organization's rules or suppressions were
    // written (tables tested before this one): start from none.
    settings_stamps: async (organizationId) => {
      await owner('DELETE FROM settings_stamps WHERE organization_id = $1', [organizationId]);
      return { organization_id: organizationId, stamp: 1 };
    },
    api_keys: (organizationId) => ({
      organization_id: organizationId,
      id: newId('key'),
      name: 'rls',
      environment: 'live',
      scope: 'standard',
      display_prefix: 'gk_live_xxxx…',
      secret_hash: hashApiKey(generateApiKey('live')),
      created_by: 'test',
    }),
    event_outbox: (organizationId) => ({ organization_id: organizationId, id: newId('evt'), type: 'rls.checked', data: '{}' }),
    screenings: (organizationId) => ({
      organization_id: organizationId,
      id: newId('scr'),
      source: 'prescreen',
      outcome: 'clear',
      score: 0,
      record: '{}',
      record_sha256: 'a'.repeat(64),
      audit_hash: 'b'.repeat(64),
      actor: 'test',
      request_id: 'req_test',
      created_at: new Date().toISOString(),
    }),
    adjudication_rules: (organizationId) => ({
      organization_id: organizationId,
      version: Math.floor(Math.random() * 1e9) + 1,
      rules: '{}',
      created_by: 'test',
    }),
    cases: async (organizationId) => ({
      organization_id: organizationId,
      id: newId('case'),
      screening_id: (await parentRow('screenings', organizationId)).id,
      source: 'prescreen',
      status: 'OPEN',
      priority: 'low',
      priority_rank: 1,
      priority_reasons: '[]',
      score: 0.9,
      lists: '["OFAC_SDN"]',
      sla_due_at: new Date().toISOString(),
      rules_version: 0,
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    }),
    case_events: async (organizationId) => ({
      organization_id: organizationId,
      case_id: (await parentRow('cases', organizationId)).id,
      seq: 1,
      action: 'opened',
      actor: 'test',
      created_at: new Date().toISOString(),
    }),
    suppressions: async (organizationId) => ({
      organization_id: organizationId,
      id: newId('sup'),
      subject_fingerprint: 'c'.repeat(64),
      list: 'OFAC_SDN',
      entry_id: '10001',
      entry_sha256: 'd'.repeat(64),
      case_id: (await parentRow('cases', organizationId)).id,
      created_by: 'test',
      created_at: new Date().toISOString(),
    }),
    visitor_sessions: async (organizationId) => ({
      organization_id: organizationId,
      id: newId('ses'),
      status: 'checked_in',
      on_site: true,
      site: 'HQ',
      visitor: '{"name":"RLS"}',
      screening_id: (await parentRow('screenings', organizationId)).id,
      prescreen_reused: false,
      history: '[]',
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    }),
    workforce_profiles: (organizationId) => ({
      organization_id: organizationId,
      id: newId('wfp'),
      external_id: newId('ext'),
      status: 'active',
      profile: '{"name":"RLS"}',
      screened_sha256: 'a'.repeat(64),
      profile_sha256: 'b'.repeat(64),
      last_sync_id: newId('wfs'),
      created_at: new Date().toISOString(),
      updated_at: new Date().toISOString(),
    }),
    workforce_syncs: (organizationId) => ({
      organization_id: organizationId,
      id: newId('wfs'),
      mode: 'upsert',
      status: 'completed',
      counts: '{}',
      actor: 'test',
      started_at: new Date().toISOString(),
    }),
    monitoring_runs: (organizationId) => ({
      organization_id: organizationId,
      id: newId('mon'),
      list: 'OFAC_SDN',
      list_version_id: newId('lv'),
      previous_version_id: newId('lv'),
      changed_entries: 1,
      status: 'queued',
      cursor: '{}',
      counts: '{}',
      created_at: new Date().toISOString(),
    }),
    vendors: (organizationId) => ({ organization_id: organizationId, id: newId('ven'), name: 'Example Vendor', latest_screening_id: newId('scr') }),
    webhook_endpoints: (organizationId) => ({
      organization_id: organizationId,
      id: newId('we'),
      url: 'https://hooks.example.com/rls',
      events: '{screening.completed}', // an array literal: the test also writes it into SQL as text
      secret_ciphertext: 'sealed',
    }),
    // Deliveries and attempts hang off an endpoint and an event of the same organization: see webhookParents.
    webhook_deliveries: (organizationId) => ({
      organization_id: organizationId,
      endpoint_id: webhookParents.get(organizationId)?.endpointId,
      event_id: webhookParents.get(organizationId)?.deliveredEventId,
      next_attempt_at: new Date().toISOString(),
    }),
    webhook_attempts: (organizationId) => ({
      organization_id: organizationId,
      endpoint_id: webhookParents.get(organizationId)?.endpointId,
      event_id: webhookParents.get(organizationId)?.attemptedEventId,
      number: 1,
      attempted_at: new Date().toISOString(),
      outcome: 'succeeded',
      status: 200,
      latency_ms: 12,
    }),
    inbound_webhook_receipts: (organizationId) => ({
      organization_id: organizationId,
      id: newId('iwh'),
      kind: 'visitor_checked_in',
      key_paths: '{visitor}',
      key_paths_truncated: false,
      signed: false,
      request_id: 'req_test',
    }),
    inbound_webhook_secrets: (organizationId) => ({ organization_id: organizationId, secret_ciphertext: 'sealed' }),
    console_users: (organizationId) => ({
      organization_id: organizationId,
      id: newId('usr'),
      email: `${newId('rls')}@example.com`,
      role: 'viewer',
      created_by: 'test',
    }),
    ...watchlistRowFactories(parentRow),
    ownership_checks: (organizationId) => ({
      organization_id: organizationId,
      id: newId('own'),
      target_id: 'target',
      status: 'clear',
      as_of: '2026-11-24',
      record: '{}',
      record_sha256: 'a'.repeat(64),
      actor: 'api_key:test',
      checked_at: new Date().toISOString(),
    }),
    ownership_check_parties: async (organizationId) => ({
      organization_id: organizationId,
      key: 'word:example',
      check_id: (await parentRow('ownership_checks', organizationId)).id,
      names: '[]',
    }),
    idempotency_keys: (organizationId) => ({
      organization_id: organizationId,
      key: newId('key'),
      request_fingerprint: 'f'.repeat(64),
      state: 'in_progress',
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    }),
  };

  /** Per organization: an endpoint and two events (one for the delivery row, one with a delivery for the attempt row). */
  const webhookParents = new Map<string, { endpointId: string; deliveredEventId: string; attemptedEventId: string }>();

  async function createWebhookParents(organizationId: string) {
    const parents = { endpointId: newId('we'), deliveredEventId: newId('evt'), attemptedEventId: newId('evt') };
    await insertAsOwner('webhook_endpoints', { ...(await factories.webhook_endpoints?.(organizationId)), id: parents.endpointId });
    for (const eventId of [parents.deliveredEventId, parents.attemptedEventId]) {
      // A type the endpoint does not subscribe to: the fan-out trigger makes no delivery of its own.
      await insertAsOwner('event_outbox', { organization_id: organizationId, id: eventId, type: 'rls.parent', data: '{}' });
    }
    await insertAsOwner('webhook_deliveries', {
      organization_id: organizationId,
      endpoint_id: parents.endpointId,
      event_id: parents.attemptedEventId,
      next_attempt_at: new Date().toISOString(),
    });
    webhookParents.set(organizationId, parents);
  }

  return { factories, createWebhookParents };
}
