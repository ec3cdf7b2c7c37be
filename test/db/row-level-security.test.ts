/**
 * Row-level security, proven in SQL as the runtime role every request runs as. The catalog is
 * walked, so a future table with an organization_id column is checked without anyone listing it,
 * and the isolation tests fail until that table has a row factory below.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { generateApiKey, hashApiKey } from '../../src/auth/api-key-format.ts';
import type { Actor } from '../../src/db/tenant.ts';
import { ORGANIZATION_SETTING } from '../../src/db/tenant-settings.ts';
import { newId } from '../../src/ids.ts';
import { createOrganization } from '../helpers/credentials.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';
import { watchlistRowFactories } from './watchlist-rows.ts';

type Row = Record<string, unknown>;

/** Inserts a fresh row of `table` for the organization (as the owner) and returns it: the parent a foreign key needs. */
async function parentRow(table: string, organizationId: string): Promise<Row> {
  const row = await (TENANT_ROW_FACTORIES[table] as (organizationId: string) => Row | Promise<Row>)(organizationId);
  await insertAsOwner(table, row);
  return row;
}

/** A valid row of each tenant table for a given organization. Add one for every new table. */
const TENANT_ROW_FACTORIES: Record<string, (organizationId: string) => Row | Promise<Row>> = {
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
    await database.owner('DELETE FROM settings_stamps WHERE organization_id = $1', [organizationId]);
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
  await insertAsOwner('webhook_endpoints', { ...(await TENANT_ROW_FACTORIES.webhook_endpoints?.(organizationId)), id: parents.endpointId });
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

let database: TestDatabase;
let orgA: string;
let orgB: string;
let tenantTables: string[];

const actorOf = (organizationId: string): Actor => ({ organizationId, kind: 'system', id: 'rls-test' });
const noOrganization = actorOf('');

async function insertAsOwner(table: string, row: Record<string, unknown>) {
  const columns = Object.keys(row);
  // The organization is also set for the statement's transaction, as a request's is: triggers
  // that run as a non-superuser owner (bump_settings_stamp) are bound by row-level security.
  const placeholders = columns
    .map((column, i) => (column === 'organization_id' ? `set_config('${ORGANIZATION_SETTING}', $${i + 1}, true)` : `$${i + 1}`))
    .join(', ');
  await database.owner(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${placeholders})`, Object.values(row));
}

/** Runs one statement as the runtime role for `actor`; resolves to its error code, or 'ok'. */
async function runtimeOutcome(actor: Actor, statement: string): Promise<string> {
  try {
    await database.db.withTenant(actor, (trx) => sql.raw(statement).execute(trx));
    return 'ok';
  } catch (error) {
    return String((error as { code?: string }).code ?? (error as Error).message);
  }
}

before(async () => {
  database = await openTestDatabase();
  orgA = await createOrganization(database.owner, { name: 'A' });
  orgB = await createOrganization(database.owner, { name: 'B' });
  const rows = await database.owner<{ table_name: string }>(
    `SELECT table_name FROM information_schema.columns
      WHERE table_schema = 'public' AND column_name = 'organization_id' ORDER BY table_name`,
  );
  tenantTables = rows.map((r) => r.table_name);
  for (const organizationId of [orgA, orgB]) await createWebhookParents(organizationId);
});
after(() => database.close());

describe('the catalog', () => {
  test('there is at least one tenant table to protect', () => {
    assert.ok(tenantTables.length > 0);
  });

  test('every tenant table forces RLS with a policy on the current organization for every command', async () => {
    for (const table of tenantTables) {
      const [flags] = await database.owner<{ enabled: boolean; forced: boolean }>(
        `SELECT relrowsecurity AS enabled, relforcerowsecurity AS forced FROM pg_class WHERE oid = $1::regclass`,
        [table],
      );
      assert.deepEqual(flags, { enabled: true, forced: true }, `${table} must ENABLE and FORCE row level security`);
      const policies = await database.owner<{ cmd: string; qual: string | null; check: string | null }>(
        `SELECT polcmd AS cmd, pg_get_expr(polqual, polrelid) AS qual, pg_get_expr(polwithcheck, polrelid) AS check
           FROM pg_policy WHERE polrelid = $1::regclass`,
        [table],
      );
      const guard = policies.find(
        (p) =>
          p.cmd === '*' &&
          /organization_id = current_organization_id\(\)/.test(p.qual ?? '') &&
          /organization_id = current_organization_id\(\)/.test(p.check ?? ''),
      );
      assert.ok(guard, `${table} needs a policy FOR ALL USING and WITH CHECK organization_id = current_organization_id()`);
    }
  });

  test('organization_id leads the primary key and every foreign key of every tenant table', async () => {
    for (const table of tenantTables) {
      const keys = await database.owner<{ name: string; type: string; first: string }>(
        `SELECT c.conname AS name, c.contype AS type, a.attname AS first
           FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
          WHERE c.conrelid = $1::regclass AND c.contype IN ('p', 'f')`,
        [table],
      );
      assert.ok(
        keys.some((k) => k.type === 'p'),
        `${table} has no primary key`,
      );
      for (const key of keys) assert.equal(key.first, 'organization_id', `${table}: ${key.name} must start with organization_id`);
    }
  });

  const unsecured = (privileges: string) =>
    database.owner<{ table_name: string }>(
      `SELECT c.relname AS table_name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relforcerowsecurity
          AND has_table_privilege('gatehouse_runtime', c.oid, $1) ORDER BY 1`,
      [privileges],
    );

  test("every other table is either row-level secured or out of the runtime role's reach for writing", async () => {
    assert.deepEqual(await unsecured('INSERT, UPDATE, DELETE'), []);
  });

  test('the only tables every organization may read are the restricted-party lists, which are public data', async () => {
    const readable = (await unsecured('SELECT')).map((t) => t.table_name);
    assert.deepEqual(readable, ['list_changes', 'list_entries', 'list_heads', 'list_versions']);
  });

  test('every tenant table has a row factory in this test, so its isolation is exercised', () => {
    assert.deepEqual(
      tenantTables.filter((t) => !TENANT_ROW_FACTORIES[t]),
      [],
    );
  });
});

describe('the runtime role', () => {
  test('is who a tenant transaction runs as, and it is not privileged', async () => {
    const [me] = await database.db.withTenant(
      actorOf(orgA),
      async (trx) =>
        (
          await sql<{ who: string; super: boolean; bypass: boolean; owns: number }>`
        SELECT current_user AS who, r.rolsuper AS super, r.rolbypassrls AS bypass,
               (SELECT count(*)::int FROM pg_class WHERE relowner = r.oid) AS owns
          FROM pg_roles r WHERE r.rolname = current_user`.execute(trx)
        ).rows,
    );
    assert.deepEqual(me, { who: 'gatehouse_runtime', super: false, bypass: false, owns: 0 });
  });

  test('cannot turn row level security off', async () => {
    for (const table of tenantTables) {
      assert.equal(await runtimeOutcome(actorOf(orgA), `ALTER TABLE ${table} DISABLE ROW LEVEL SECURITY`), '42501');
      assert.equal(await runtimeOutcome(actorOf(orgA), `ALTER TABLE ${table} NO FORCE ROW LEVEL SECURITY`), '42501');
    }
  });

  test('cannot become the owner', async (t) => {
    const { rows } = await sql<{ owner: string; superuser: boolean }>`
      SELECT current_user AS owner, rolsuper AS superuser FROM pg_roles WHERE rolname = current_user`.execute(database.connection.kysely);
    const { owner, superuser } = rows[0] as { owner: string; superuser: boolean };
    if (!superuser) {
      // Only a superuser may change the session user; under any other owner, SET ROLE and RESET
      // ROLE go back to it from inside the transaction (README says so).
      t.skip('a non-superuser owner switches with SET LOCAL ROLE, which the session user can undo');
      return;
    }
    assert.equal(await runtimeOutcome(actorOf(orgA), `SET ROLE ${owner}`), '42501');
    const afterReset = await database.db.withTenant(actorOf(orgA), async (trx) => {
      await sql`RESET ROLE`.execute(trx);
      return (await sql<{ who: string }>`SELECT current_user AS who`.execute(trx)).rows[0]?.who;
    });
    assert.equal(afterReset, 'gatehouse_runtime');
  });

  test("cannot read the migrations table or the service's secrets, or create tables", async () => {
    assert.equal(await runtimeOutcome(actorOf(orgA), 'SELECT * FROM gatehouse_migrations'), '42501');
    assert.equal(await runtimeOutcome(actorOf(orgA), 'SELECT * FROM service_secrets'), '42501');
    assert.equal(await runtimeOutcome(actorOf(orgA), 'CREATE TABLE sneaky (id int)'), '42501');
  });

  test('leaves the connection as the owner once the transaction ends, even after an error', async () => {
    await runtimeOutcome(actorOf(orgA), 'SELECT * FROM gatehouse_migrations');
    await database.db.withTenant(actorOf(orgA), async () => undefined);
    const status = await database.db.migrationStatus(); // needs the owner's rights
    assert.deepEqual(status.pending, []);
  });

  test("keeps an actor's id exactly as given, quotes and backslashes included (PostgreSQL sends them as literals)", async () => {
    const id = String.raw`o'brien\x'; SET ROLE postgres; --`;
    const seen = await database.db.withTenant(
      { ...actorOf(orgA), id },
      async (trx) =>
        (
          await sql<{ actor: string; organization: string }>`
        SELECT current_setting('app.actor') AS actor, current_setting('app.organization_id') AS organization`.execute(trx)
        ).rows[0],
    );
    assert.deepEqual(seen, { actor: `system:${id}`, organization: orgA });
  });

  test('writes nothing when the work inside fails, and the next transaction starts clean', async () => {
    const row = await (TENANT_ROW_FACTORIES.audit_events as (organizationId: string) => Row)(orgA);
    await assert.rejects(
      database.db.withTenant(actorOf(orgA), async (trx) => {
        await sql`INSERT INTO audit_events ${sql.raw(`(${Object.keys(row).join(', ')})`)} VALUES (${sql.join(Object.values(row))})`.execute(trx);
        throw new Error('the work failed after writing');
      }),
      /the work failed after writing/,
    );
    const found = await database.owner<{ n: number }>('SELECT count(*)::int AS n FROM audit_events WHERE organization_id = $1 AND seq = $2', [orgA, row.seq]);
    assert.deepEqual(found, [{ n: 0 }]);
    const who = await database.db.withTenant(actorOf(orgA), async (trx) => (await sql<{ who: string }>`SELECT current_user AS who`.execute(trx)).rows[0]?.who);
    assert.equal(who, 'gatehouse_runtime');
  });
});

describe('organizations', () => {
  test('a tenant sees its own organization only, and none without one set', async () => {
    const seen = (actor: Actor) => database.db.withTenant(actor, (trx) => trx.selectFrom('organizations').select('id').execute());
    assert.deepEqual(await seen(actorOf(orgA)), [{ id: orgA }]);
    assert.deepEqual(await seen(noOrganization), []);
  });

  test('a tenant cannot create, rename or delete organizations', async () => {
    assert.equal(await runtimeOutcome(actorOf(orgA), `INSERT INTO organizations (id, name) VALUES ('${newId('org')}', 'X')`), '42501');
    assert.equal(await runtimeOutcome(actorOf(orgA), `UPDATE organizations SET name = 'X' WHERE id = '${orgA}'`), '42501');
    assert.equal(await runtimeOutcome(actorOf(orgA), `DELETE FROM organizations WHERE id = '${orgB}'`), '42501');
  });
});

describe('tenant tables', () => {
  test("isolate each organization's rows for reads, inserts, updates and deletes", async (t) => {
    for (const table of tenantTables) {
      await t.test(table, async () => {
        const factory = TENANT_ROW_FACTORIES[table];
        assert.ok(factory, `no row factory for ${table}`);
        const rowB = await factory(orgB);
        await insertAsOwner(table, await factory(orgA));
        await insertAsOwner(table, rowB);
        const countB = async () => (await database.owner<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE organization_id = $1`, [orgB]))[0]?.n;
        const before = await countB();

        const visible = (actor: Actor) =>
          database.db.withTenant(actor, async (trx) =>
            (await sql<{ org: string }>`SELECT DISTINCT organization_id AS org FROM ${sql.table(table)}`.execute(trx)).rows.map((r) => r.org),
          );
        assert.deepEqual(await visible(noOrganization), [], 'no organization set: no rows');
        assert.deepEqual(await visible(actorOf(orgA)), [orgA], 'A sees only A');

        // Either row level security hides B's rows (nothing affected), or the runtime role has no
        // right to the statement at all (42501): both leave B's rows as they were.
        const affected = (statement: string) =>
          database.db
            .withTenant(actorOf(orgA), async (trx) => Number((await sql.raw(statement).execute(trx)).numAffectedRows ?? 0))
            .catch((error: { code?: string }) => (error.code === '42501' ? 'refused' : Promise.reject(error)));
        const updateColumn = Object.keys(rowB).find((c) => c !== 'organization_id') as string;
        assert.ok([0, 'refused'].includes(await affected(`UPDATE ${table} SET ${updateColumn} = ${updateColumn} WHERE organization_id = '${orgB}'`)));
        assert.ok([0, 'refused'].includes(await affected(`DELETE FROM ${table} WHERE organization_id = '${orgB}'`)));
        assert.equal(await countB(), before, "B's rows are untouched");

        const columns = Object.keys(rowB);
        const literals = Object.values(await factory(orgB)).map((v) => (Buffer.isBuffer(v) ? `'\\x${v.toString('hex')}'` : `'${String(v)}'`));
        assert.equal(
          await runtimeOutcome(actorOf(orgA), `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${literals.join(', ')})`),
          '42501',
          'A cannot insert a row of B',
        );
        assert.equal(
          await runtimeOutcome(actorOf(orgA), `UPDATE ${table} SET organization_id = '${orgB}' WHERE organization_id = '${orgA}'`),
          '42501',
          'A cannot move its rows to B',
        );
      });
    }
  });
});
