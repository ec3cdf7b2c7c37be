/**
 * A fresh, migrated database for each test file, on the backend the environment selects:
 * PostgreSQL when DATABASE_URL is set (a new database on that server, dropped afterwards),
 * otherwise the embedded PGlite, in memory.
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

/** SQL as the database owner (a superuser), for setting up and inspecting what tests need. */
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
    .update(loadMigrations().map((m) => `${m.version}:${m.checksum}`).join(','))
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
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();

  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const connection: Connection = await openPostgresConnection({ url: url.href, poolSize: 5 });
  const db = await createDatabase(connection, { statementTimeoutMs: 10_000 });
  await db.migrate();
  const ownerPool = new pg.Pool({ connectionString: url.href, max: 2 });
  return {
    db,
    connection,
    backend: 'postgres',
    url: url.href,
    owner: async (text, params) => (await ownerPool.query(text, params)).rows,
    close: async () => {
      await db.close();
      await ownerPool.end();
      await dropWhenUnused(serverUrl, name);
    },
  };
}

/**
 * Drops a test database once nothing is connected to it. `pool.end()` resolves before the server
 * has seen its connections close, and `DROP … WITH (FORCE)` would then kill a connection that is
 * still closing: its client, no longer watched by its pool, throws the error into the test run.
 * So: no FORCE, and retry while PostgreSQL says the database is in use (55006).
 */
async function dropWhenUnused(serverUrl: string, name: string) {
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
