/**
 * A fresh, migrated database for each test file, on the backend the environment selects:
 * PostgreSQL when DATABASE_URL is set (a new database on that server, dropped afterwards),
 * otherwise the embedded PGlite, in memory.
 *
 * On PostgreSQL the service connects as DATABASE_URL's role, which owns the database: a
 * superuser, or an owner that is not one, as production runs (README). The tests' own SQL
 * (`owner`) sets up and inspects rows of any organization, which row-level security forbids a
 * non-superuser owner (FORCE binds it too): for that role TEST_SUPERUSER_URL names a superuser on
 * the same server, who also creates each test database for the owner and drops it.
 *
 * PGlite takes seconds to create and migrate, so the first test file to need it builds a migrated
 * template (keyed by the migrations' checksums) and every file after loads a copy of it.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Connection } from '../../src/db/connection.ts';
import { createDatabase, type Database } from '../../src/db/database.ts';
import { loadMigrations } from '../../src/db/migrator.ts';
import { pgliteConnection } from '../../src/db/pglite-connection.ts';
import { openPostgresConnection } from '../../src/db/postgres-connection.ts';
import { citusClusterOf, dropOnWorkers, makeCitusDatabase, releaseCitusDatabase } from './citus-test-database.ts';

/**
 * SQL as a superuser (the owner when it is one, see above), past row-level security: for setting
 * up and inspecting what tests need, never for what the service does.
 */
export type OwnerSql = <Row = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<Row[]>;

export type TestDatabase = {
  db: Database;
  /** The owner's connection, for tests of the database layer itself. */
  connection: Connection;
  owner: OwnerSql;
  backend: Database['backend'];
  /** The connection string of this test's own database (PostgreSQL only). */
  url?: string;
  close(): Promise<void>;
};

export const testBackend = (): Database['backend'] => (process.env.DATABASE_URL ? 'postgres' : 'pglite');

export async function openTestDatabase(): Promise<TestDatabase> {
  return process.env.DATABASE_URL ? openOnPostgres(process.env.DATABASE_URL) : openOnPglite();
}

async function openOnPglite(): Promise<TestDatabase> {
  const pglite = await PGlite.create({ loadDataDir: new Blob([await pgliteTemplate()]) });
  const connection = pgliteConnection(pglite);
  const db = await createDatabase(connection, { statementTimeoutMs: 10_000 });
  return {
    db,
    connection,
    backend: 'pglite',
    owner: async (text, params) => (await pglite.query(text, params)).rows as never,
    close: () => db.close(),
  };
}

async function pgliteTemplate(): Promise<Buffer> {
  const key = createHash('sha256')
    .update(
      loadMigrations()
        .map((m) => `${m.version}:${m.checksum}`)
        .join(','),
    )
    .update(JSON.parse(fs.readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')).version)
    .digest('hex')
    .slice(0, 16);
  const file = path.join(os.tmpdir(), `gatehouse-test-template-${key}.tar.gz`);
  if (fs.existsSync(file)) return fs.readFileSync(file);

  const pglite = await PGlite.create();
  const db = await createDatabase(pgliteConnection(pglite), { statementTimeoutMs: 10_000 });
  await db.migrate();
  const dump = Buffer.from(await (await pglite.dumpDataDir('gzip')).arrayBuffer());
  await db.close();
  // Write then rename, so a test file running in parallel never reads half a template.
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, dump);
  fs.renameSync(partial, file);
  return dump;
}

async function openOnPostgres(serverUrl: string): Promise<TestDatabase> {
  const name = `gatehouse_test_${randomBytes(6).toString('hex')}`;
  const owner = await roleOf(serverUrl);
  const superuserUrl = await superuserUrlFor(serverUrl, owner);
  const admin = new pg.Client({ connectionString: superuserUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} OWNER ${pg.escapeIdentifier(owner.name)}`);
  } finally {
    await admin.end();
  }
  const citus = await citusClusterOf(superuserUrl);
  if (citus) await makeCitusDatabase(superuserUrl, citus, name, owner.name);

  const url = inDatabase(serverUrl, name);
  const connection: Connection = await openPostgresConnection({ url, poolSize: 5 });
  const db = await createDatabase(connection, { statementTimeoutMs: 10_000 });
  await migrateOnceTheRoleExists(superuserUrl, () => db.migrate());
  const ownerPool = new pg.Pool({ connectionString: inDatabase(superuserUrl, name), max: 2 });
  return {
    db,
    connection,
    backend: 'postgres',
    url,
    owner: async (text, params) => (await ownerPool.query(text, params)).rows,
    close: async () => {
      await db.close();
      await ownerPool.end();
      if (citus) await releaseCitusDatabase(superuserUrl, name);
      await dropWhenUnused(superuserUrl, name);
      if (citus) await dropOnWorkers(superuserUrl, citus, name);
    },
  };
}

/**
 * The first migration on a fresh cluster creates the cluster-wide role gatehouse_runtime; test
 * files that migrate their own databases at the same moment would race to create it (a unique
 * violation in pg_authid). Until the role exists, migrations take turns under an advisory lock
 * held in the server's maintenance database; after that they run side by side.
 */
async function migrateOnceTheRoleExists(superuserUrl: string, migrate: () => Promise<unknown>) {
  const admin = new pg.Client({ connectionString: superuserUrl });
  await admin.connect();
  try {
    const roleExists = async () => (await admin.query("SELECT 1 FROM pg_roles WHERE rolname = 'gatehouse_runtime'")).rowCount === 1;
    if (await roleExists()) return await migrate();
    await admin.query("SELECT pg_advisory_lock(hashtext('gatehouse tests: the first migration'))");
    try {
      await migrate();
    } finally {
      await admin.query("SELECT pg_advisory_unlock(hashtext('gatehouse tests: the first migration'))");
    }
  } finally {
    await admin.end();
  }
}

const inDatabase = (serverUrl: string, name: string) => Object.assign(new URL(serverUrl), { pathname: `/${name}` }).href;

async function roleOf(url: string): Promise<{ name: string; superuser: boolean }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; superuser: boolean }>(
      'SELECT rolname AS name, rolsuper AS superuser FROM pg_roles WHERE rolname = current_user',
    );
    return rows[0] as { name: string; superuser: boolean };
  } finally {
    await client.end();
  }
}

/** A superuser on DATABASE_URL's server (see superuserUrlFor), for tests that make roles and databases of their own. */
export async function testSuperuserUrl(): Promise<string> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('testSuperuserUrl: PostgreSQL only (DATABASE_URL is not set)');
  return superuserUrlFor(serverUrl, await roleOf(serverUrl));
}

/** Who creates, inspects and drops test databases: DATABASE_URL's role if a superuser, else TEST_SUPERUSER_URL's. */
async function superuserUrlFor(serverUrl: string, owner: { superuser: boolean }): Promise<string> {
  if (owner.superuser) return serverUrl;
  const superuserUrl = process.env.TEST_SUPERUSER_URL;
  if (!superuserUrl || !(await roleOf(superuserUrl)).superuser) {
    throw new Error(
      "DATABASE_URL's role is not a superuser: set TEST_SUPERUSER_URL to a superuser on the same server, for the tests' own set-up and inspection",
    );
  }
  return superuserUrl;
}

/**
 * Drops a test database once nothing is connected to it. `pool.end()` resolves before the server
 * has seen its connections close, and `DROP … WITH (FORCE)` would then kill a connection that is
 * still closing: its client, no longer watched by its pool, throws the error into the test run.
 * So: no FORCE, and retry while PostgreSQL says the database is in use (55006).
 */
export async function dropWhenUnused(serverUrl: string, name: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name}`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006' || attempt >= 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  } finally {
    await client.end();
  }
}
