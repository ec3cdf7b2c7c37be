/**
 * Plain-SQL migrations, shared by the embedded database and PostgreSQL.
 *
 * Files are named `NNNN_name.sql` and live in `src/db/migrations/` (the platform) and in
 * `src/features/<feature>/migrations/` (each feature owns its tables). Versions are unique across
 * all folders and applied in order. Each file runs in its own transaction together with the row
 * that records it, so a failed migration leaves nothing behind. A file already applied must not
 * change: its checksum is compared on every run.
 *
 * Several processes may start together against one PostgreSQL: each migration's transaction
 * takes a transaction-scoped advisory lock and applies the file only if no one has recorded it
 * meanwhile. The lock is the transaction's, not the session's, because behind a transaction
 * pooler (PgBouncer) a session is not ours: a session lock stays on whichever server connection
 * took it, its unlock may run on another and release nothing, and every later run then waits
 * for a lock no one will release. A transaction runs on one server connection from BEGIN to
 * COMMIT, and its lock ends with it, also when the process dies mid-migration.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '../sha256.ts';
import { CITUS_MIGRATION_SETTINGS, citusVersion, PLACE_NEW_TABLES, TENANT_TRANSACTIONS_ON_CITUS, unsupportedCitus } from './citus.ts';
import type { Connection, Session } from './connection.ts';
import { splitStatements } from './sql-statements.ts';

export type Migration = { version: number; name: string; checksum: string; sql: string; file: string };
export type MigrationStatus = { current: number; latest: number; pending: number[] };
export type MigrationRun = MigrationStatus & { applied: { version: number; name: string }[] };

const SRC_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FILE_PATTERN = /^(\d{4})_([a-z0-9_]+)\.sql$/;
// Any constant works; it only has to be the same for every Gatehouse process.
const MIGRATION_LOCK_KEY = 4_731_902_117;

export class MigrationError extends Error {
  override name = 'MigrationError';
}

export function loadMigrations(srcDir = SRC_DIR): Migration[] {
  const folders = [path.join(srcDir, 'db', 'migrations')];
  const featuresDir = path.join(srcDir, 'features');
  for (const feature of fs.existsSync(featuresDir) ? fs.readdirSync(featuresDir).sort() : []) {
    folders.push(path.join(featuresDir, feature, 'migrations'));
  }
  const byVersion = new Map<number, Migration>();
  for (const folder of folders.filter((f) => fs.existsSync(f))) {
    for (const fileName of fs.readdirSync(folder).sort()) {
      const file = path.join(folder, fileName);
      const match = FILE_PATTERN.exec(fileName);
      if (!match) throw new MigrationError(`${file}: migration files are named NNNN_name.sql`);
      const version = Number(match[1]);
      const clash = byVersion.get(version);
      if (clash) throw new MigrationError(`${file} and ${clash.file} both claim version ${version}`);
      const sql = fs.readFileSync(file, 'utf8');
      const checksum = sha256Hex(sql);
      byVersion.set(version, { version, name: match[2] as string, checksum, sql, file });
    }
  }
  return [...byVersion.values()].sort((a, b) => a.version - b.version);
}

const ENSURE_TABLE = `
  CREATE TABLE IF NOT EXISTS gatehouse_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    checksum text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  );
  REVOKE ALL ON gatehouse_migrations FROM PUBLIC;`;

export async function migrationStatus(connection: Connection, migrations = loadMigrations()) {
  return connection.withSession(async (session) => statusOf(session, migrations));
}

export async function migrate(connection: Connection, migrations = loadMigrations()): Promise<MigrationRun> {
  return connection.withSession(async (session) => {
    const onCitus = await citusChecked(session);
    // Two processes creating the table at once could both pass IF NOT EXISTS and collide.
    await inLockedTransaction(session, () => session.exec(ENSURE_TABLE));
    const applied: MigrationRun['applied'] = [];
    const before = await statusOf(session, migrations);
    for (const migration of migrations.filter((m) => before.pending.includes(m.version))) {
      if (await applyOne(session, migration, onCitus)) applied.push({ version: migration.version, name: migration.name });
    }
    // On Citus: each new table distributed or replicated as it declares, and what tenant transactions need (src/db/citus.ts).
    if (onCitus)
      await inLockedTransaction(session, () => session.exec([CITUS_MIGRATION_SETTINGS, PLACE_NEW_TABLES, TENANT_TRANSACTIONS_ON_CITUS].join('\n;\n')));
    return { ...(await statusOf(session, migrations)), applied };
  });
}

/** Applies the migration unless another process has, while this one waited for the lock; whether it did. */
function applyOne(session: Session, migration: Migration, onCitus: boolean): Promise<boolean> {
  return inLockedTransaction(session, async () => {
    const recorded = await session.query('SELECT 1 FROM gatehouse_migrations WHERE version = $1', [migration.version]);
    if (recorded.length > 0) return false;
    try {
      if (!onCitus) await session.exec(migration.sql);
      // On Citus a statement at a time: an ALTER of a placed table reaches the workers as the text sent (sql-statements.ts).
      else for (const statement of splitStatements([CITUS_MIGRATION_SETTINGS, migration.sql].join('\n;\n'))) await session.exec(statement);
    } catch (error) {
      throw new MigrationError(`Migration ${path.basename(migration.file)} failed: ${(error as Error).message}`);
    }
    await session.query('INSERT INTO gatehouse_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
      migration.version,
      migration.name,
      migration.checksum,
    ]);
    return true;
  });
}

/** Whether the database has the citus extension, refusing a release Gatehouse does not support. */
async function citusChecked(session: Session): Promise<boolean> {
  const version = await citusVersion(session);
  const refusal = version === null ? null : unsupportedCitus(version);
  if (refusal !== null) throw new MigrationError(refusal);
  return version !== null;
}

/** `work` in a transaction holding the migration lock, which its COMMIT or ROLLBACK releases. */
async function inLockedTransaction<T>(session: Session, work: () => Promise<T>): Promise<T> {
  await session.exec('BEGIN');
  try {
    await session.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    const result = await work();
    await session.exec('COMMIT');
    return result;
  } catch (error) {
    await session.exec('ROLLBACK');
    throw error;
  }
}

async function statusOf(session: Session, migrations: Migration[]): Promise<MigrationStatus> {
  const [{ exists } = { exists: false }] = await session.query<{ exists: boolean }>("SELECT to_regclass('gatehouse_migrations') IS NOT NULL AS exists");
  const rows = exists ? await session.query<{ version: number; checksum: string }>('SELECT version, checksum FROM gatehouse_migrations') : [];
  const appliedChecksums = new Map(rows.map((row) => [row.version, row.checksum]));
  for (const migration of migrations) {
    const checksum = appliedChecksums.get(migration.version);
    if (checksum !== undefined && checksum !== migration.checksum) {
      throw new MigrationError(`${path.basename(migration.file)} was changed after it was applied; add a new migration instead`);
    }
  }
  const known = new Set(migrations.map((m) => m.version));
  const unknown = rows.map((r) => r.version).filter((v) => !known.has(v));
  if (unknown.length > 0) {
    throw new MigrationError(`The database has migrations this version does not know (${unknown.join(', ')}): it is newer`);
  }
  return {
    current: Math.max(0, ...appliedChecksums.keys()),
    latest: Math.max(0, ...known),
    pending: migrations.filter((m) => !appliedChecksums.has(m.version)).map((m) => m.version),
  };
}
