/**
 * The owner production runs with (README): a role with LOGIN and CREATEROLE that owns its
 * database, not a superuser and without BYPASSRLS, so FORCE ROW LEVEL SECURITY binds it too.
 * Migrations, the CLI and the service all work as that role, and organizations stay walled off.
 * The file makes such a role and a database of its own, so it runs whatever role DATABASE_URL
 * names (a superuser, or the non-superuser owner .ci/run uses).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { runCli, type ServerProcess, startServerProcess } from '../helpers/server-process.ts';
import { dropWhenUnused, testBackend, testSuperuserUrl } from '../helpers/test-database.ts';

const OFAC = path.resolve('test/fixtures/ofac');

describe('a non-superuser owner runs migrations, the CLI and the service', {
  skip: testBackend() === 'pglite' && "PostgreSQL only: the embedded database's one role is a superuser",
}, () => {
  const name = `gatehouse_test_owner_${randomBytes(6).toString('hex')}`;
  let superuserUrl: string;
  let env: Record<string, string>;
  let server: ServerProcess | undefined;

  /** SQL as the superuser, in the server's default database or in the owner's. */
  async function asSuperuser<Row = Record<string, unknown>>(text: string, params: unknown[] = [], database?: string): Promise<Row[]> {
    const url = database ? Object.assign(new URL(superuserUrl), { pathname: `/${database}` }).href : superuserUrl;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query(text, params)).rows as Row[];
    } finally {
      await client.end();
    }
  }

  const json = (args: string[]) => {
    const result = runCli(args, { ...env, LOG_LEVEL: 'silent' });
    assert.equal(result.code, 0, `gatehouse ${args.join(' ')}: ${result.stderr}`);
    return JSON.parse(result.stdout);
  };

  before(async () => {
    superuserUrl = await testSuperuserUrl();
    const password = randomBytes(16).toString('hex');
    await asSuperuser(`CREATE ROLE ${name} LOGIN CREATEROLE NOSUPERUSER NOBYPASSRLS PASSWORD '${password}'`);
    // Roles are shared by the cluster: gatehouse_runtime may have been made by another database's
    // owner, and since PostgreSQL 16 only a role holding it WITH ADMIN may grant it, so a
    // superuser does, as README says for a second database on one cluster. (On a fresh cluster
    // the owner's first migration creates it.)
    if ((await asSuperuser("SELECT 1 FROM pg_roles WHERE rolname = 'gatehouse_runtime'")).length > 0) {
      await asSuperuser(`GRANT gatehouse_runtime TO ${name}`);
    }
    await asSuperuser(`CREATE DATABASE ${name} OWNER ${name}`);
    const url = new URL(superuserUrl);
    Object.assign(url, { username: name, password, pathname: `/${name}` });
    env = { DATABASE_URL: url.href };
  });
  after(async () => {
    await server?.stop();
    if (!superuserUrl) return;
    await dropWhenUnused(superuserUrl, name);
    await asSuperuser(`DROP ROLE IF EXISTS ${name}`);
  });

  let orgA: string;
  let orgB: string;
  let keyA: string;
  let keyB: string;

  test('the role is what production runs with: no superuser, no BYPASSRLS', async () => {
    const [role] = await asSuperuser<{ rolsuper: boolean; rolbypassrls: boolean }>('SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = $1', [name]);
    assert.deepEqual(role, { rolsuper: false, rolbypassrls: false });
  });

  test('migrate, then orgs create, update and list, keys, users and tokens, and lists import', () => {
    assert.deepEqual(json(['migrate']).pending, []);
    orgA = json(['orgs', 'create', '--name', 'Alpha Works', '--tier', 'enterprise']).id;
    orgB = json(['orgs', 'create', '--name', 'Bravo Works', '--tier', 'enterprise']).id;
    assert.equal(json(['orgs', 'update', '--org', orgA, '--rate-limit', '40']).rate_limit_per_second, 40);
    assert.deepEqual(
      json(['orgs', 'list'])
        .map((o: { id: string }) => o.id)
        .sort(),
      [orgA, orgB].sort(),
    );
    keyA = json(['keys', 'create', '--org', orgA, '--admin']).key;
    keyB = json(['keys', 'create', '--org', orgB]).key;
    assert.equal(json(['keys', 'list', '--org', orgA]).length, 1);
    assert.equal(json(['users', 'create', '--org', orgA, '--email', 'fso@example.com', '--role', 'admin']).email, 'fso@example.com');
    assert.equal(json(['tokens', 'issue', '--org', orgA, '--subject', 'fso@example.com', '--role', 'viewer']).token.split('.').length, 3);
    assert.equal(json(['lists', 'import', OFAC])[0].status, 'imported');
    assert.equal(json(['audit', 'verify']).intact, true);
  });

  test('the service screens for one organization and the other cannot see it', async () => {
    server = await startServerProcess(env);
    const call = (key: string, route: string, init: { method?: string; body?: unknown } = {}) =>
      fetch(`${server?.baseUrl}/v1${route}`, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${key}`, ...(init.body !== undefined && { 'content-type': 'application/json' }) },
        ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
      });
    const created = await call(keyA, '/prescreen', { method: 'POST', body: { subject: 'Karim Yusuf Abu-Ali' } });
    assert.equal(created.status, 201, await created.clone().text());
    const screening = (await created.json()) as { id: string; outcome: string };
    assert.equal(screening.outcome, 'potential_match', 'screened against the list the owner imported');
    assert.equal((await call(keyA, `/screenings/${screening.id}`)).status, 200);
    assert.equal((await call(keyB, `/screenings/${screening.id}`)).status, 404, "another organization's screening answers 404");
  });

  test('row-level security still walls the runtime role off; only the owner writes organizations', async () => {
    const owner = new pg.Client({ connectionString: env.DATABASE_URL });
    await owner.connect();
    try {
      const visibleTo = async (organizationId: string) => {
        await owner.query('BEGIN');
        try {
          await owner.query("SELECT set_config('role', 'gatehouse_runtime', true), set_config('app.organization_id', $1, true)", [organizationId]);
          const { rows } = await owner.query<{ id: string }>('SELECT id FROM organizations UNION ALL SELECT organization_id FROM screenings');
          return rows.map((r) => r.id);
        } finally {
          await owner.query('ROLLBACK');
        }
      };
      assert.deepEqual(await visibleTo(orgA), [orgA, orgA], 'its organization and its screening');
      assert.deepEqual(await visibleTo(orgB), [orgB], "nothing of the other's");

      await owner.query('BEGIN');
      try {
        await owner.query("SELECT set_config('role', 'gatehouse_runtime', true), set_config('app.organization_id', $1, true)", [orgB]);
        await assert.rejects(owner.query("UPDATE organizations SET name = 'Taken' WHERE id = $1", [orgA]), /permission denied/);
      } finally {
        await owner.query('ROLLBACK');
      }
    } finally {
      await owner.end();
    }
    const [row] = await asSuperuser<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [orgA], name);
    assert.equal(row?.name, 'Alpha Works');
  });
});
