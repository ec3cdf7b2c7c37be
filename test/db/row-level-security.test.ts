/**
 * Row-level security, proven in SQL as the runtime role every request runs as. The catalog is
 * walked, so a future table with an organization_id column is checked without anyone listing it,
 * and the isolation tests fail until that table has a row factory below.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Actor } from '../../src/db/tenant.ts';
import { ORGANIZATION_SETTING } from '../../src/db/tenant-settings.ts';
import { newId } from '../../src/ids.ts';
import { createOrganization } from '../helpers/credentials.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';
import { type Row, tenantRowFactories } from './tenant-rows.ts';

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

const { factories: TENANT_ROW_FACTORIES, createWebhookParents } = tenantRowFactories({
  owner: (statement, parameters) => database.owner(statement, parameters),
  insertAsOwner,
});

/** Runs one statement as the runtime role for `actor`; resolves to its error, or 'ok'. */
async function runtimeError(actor: Actor, statement: string): Promise<{ code?: string; message: string } | 'ok'> {
  try {
    await database.db.withTenant(actor, (trx) => sql.raw(statement).execute(trx));
    return 'ok';
  } catch (error) {
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  }
}

/** Runs one statement as the runtime role for `actor`; resolves to its error code, or 'ok'. */
async function runtimeOutcome(actor: Actor, statement: string): Promise<string> {
  const outcome = await runtimeError(actor, statement);
  return outcome === 'ok' ? outcome : (outcome.code ?? outcome.message);
}

/**
 * Citus refuses every UPDATE of a distributed table's distribution column, `organization_id`,
 * before row-level security is asked: there too a row cannot change organization, so this refusal
 * means what PostgreSQL's 42501 means here. Known by its message, not by its code alone (0A000,
 * which Citus also answers for anything else it does not support).
 */
const CITUS_KEEPS_A_ROW_IN_ITS_ORGANIZATION = /^modifying the partition value of rows is not allowed$/;

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

  test("cannot read the migrations table, the service's secrets or the rate limits (every organization's credentials and clients' addresses), or create tables", async () => {
    assert.equal(await runtimeOutcome(actorOf(orgA), 'SELECT * FROM gatehouse_migrations'), '42501');
    assert.equal(await runtimeOutcome(actorOf(orgA), 'SELECT * FROM service_secrets'), '42501');
    assert.equal(await runtimeOutcome(actorOf(orgA), 'SELECT * FROM limit_buckets'), '42501');
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
        const moved = await runtimeError(actorOf(orgA), `UPDATE ${table} SET organization_id = '${orgB}' WHERE organization_id = '${orgA}'`);
        assert.ok(
          moved !== 'ok' && (moved.code === '42501' || (moved.code === '0A000' && CITUS_KEEPS_A_ROW_IN_ITS_ORGANIZATION.test(moved.message))),
          `A cannot move its rows to B: ${JSON.stringify(moved)}`,
        );
      });
    }
  });
});
