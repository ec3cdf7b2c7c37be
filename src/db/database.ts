/**
 * The database as the rest of the service sees it. The owner connection stays in here: features
 * get `withTenant`, operations get health and migration status, and nothing hands out the owner's
 * Kysely instance.
 */
import { sql } from 'kysely';
import { createKeyLookup, type KeyAuthentication } from '../auth/api-key-store.ts';
import type { Config } from '../config.ts';
import { createListStore, type ListStore } from '../lists/list-store.ts';
import { createSourceCheckStore, type SourceCheckStore } from '../lists/source-check-store.ts';
import type { Backend, Connection } from './connection.ts';
import { createLimitBuckets, type LimitBuckets } from './limit-buckets.ts';
import { loadMigrations, type MigrationRun, type MigrationStatus, migrate, migrationStatus } from './migrator.ts';
import { createOperator, type Operator } from './operator.ts';
import { openPgliteConnection } from './pglite-connection.ts';
import { openPostgresConnection } from './postgres-connection.ts';
import { identifier, sqlText } from './sql-text.ts';
import { createWithTenant, type WithTenant } from './tenant.ts';
import type { RoleSwitch } from './tenant-settings.ts';

export type Database = {
  backend: Backend;
  /** Whether statements are prepared (prepared-statements.ts): not behind a pooler unless DATABASE_PREPARE_STATEMENTS says so. */
  preparesStatements: boolean;
  withTenant: WithTenant;
  /** Organization administration for operators (the CLI); never reachable from a request. */
  operator: Operator;
  /** The restricted-party lists, shared by every organization (written by imports, read by the catalog). */
  lists: ListStore;
  /** What the scheduled list refresh remembers between checks: sources' checks, lists' confirmations, the lease. */
  listChecks: SourceCheckStore;
  /** The rate limits' token buckets, shared by every process on this database (src/http/shared-limits.ts). */
  limitBuckets: LimitBuckets;
  /** The API key with this SHA-256, whichever organization holds it (authentication, before any organization is known). */
  lookUpApiKey: (hash: Buffer) => Promise<KeyAuthentication | undefined>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  migrationStatus(): Promise<MigrationStatus>;
  migrate(): Promise<MigrationRun>;
  close(): Promise<void>;
};

export type DatabaseOptions = { statementTimeoutMs: number };

/**
 * Opens the database and makes sure its schema is current: the embedded database is migrated
 * (it belongs to this process alone); PostgreSQL is migrated when `migrate` says so, and
 * otherwise refused if migrations are pending.
 */
export async function openReadyDatabase(config: Config, migrate = config.migrateOnStart): Promise<Database> {
  const db = await openDatabase(config);
  try {
    if (migrate || db.backend === 'pglite') await db.migrate();
    else {
      const { pending } = await db.migrationStatus();
      if (pending.length > 0) {
        throw new Error(`The database lacks migrations ${pending.join(', ')}: run \`gatehouse migrate\` first`);
      }
    }
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}

export async function openDatabase(config: Config): Promise<Database> {
  const connection = config.databaseUrl
    ? await openPostgresConnection({ url: config.databaseUrl, poolSize: config.databasePoolSize, prepareStatements: config.databasePrepareStatements })
    : await openPgliteConnection(config.dataDir);
  return createDatabase(connection, { statementTimeoutMs: config.requestTimeoutMs });
}

export async function createDatabase(connection: Connection, options: DatabaseOptions): Promise<Database> {
  const migrations = loadMigrations();
  const roleSwitch = await runtimeRoleSwitch(connection);
  let closed: Promise<void> | undefined;
  return {
    backend: connection.backend,
    preparesStatements: connection.preparesNamedStatements,
    withTenant: createWithTenant(connection.kysely, { ...options, roleSwitch, namedFinalWrites: connection.preparesNamedStatements }),
    operator: createOperator(connection.kysely),
    // The embedded database serves one process: an incomplete list version it is not writing was abandoned.
    lists: createListStore(connection.kysely, { soleProcess: connection.backend === 'pglite' }),
    listChecks: createSourceCheckStore(connection.kysely),
    limitBuckets: createLimitBuckets(connection.kysely),
    lookUpApiKey: createKeyLookup(connection.kysely),
    ping: async () => {
      await sql`SELECT 1`.execute(connection.kysely);
    },
    migrationStatus: () => migrationStatus(connection, migrations),
    migrate: () => migrate(connection, migrations),
    close: () => (closed ??= connection.close()),
  };
}

/**
 * How a tenant transaction becomes the runtime role. PostgreSQL checks SET ROLE against the
 * *session* user, so after a plain `SET LOCAL ROLE` on a superuser connection the runtime role
 * could `SET ROLE` straight back to the owner. When we are a superuser (always, on the embedded
 * database) we therefore change the session user itself, for this transaction only.
 *
 * PGlite 0.5.16 does not undo `SET LOCAL SESSION AUTHORIZATION` (nor its set_config form) at
 * commit or rollback, and ignores `RESET SESSION AUTHORIZATION` (PostgreSQL 15 does both right:
 * all were tried), so there the connection is put back by naming the owner before it is released.
 */
async function runtimeRoleSwitch(connection: Connection): Promise<RoleSwitch> {
  const { rows } = await sql<{ owner: string; super: boolean }>`
    SELECT rolname AS owner, rolsuper AS super FROM pg_roles WHERE rolname = current_user`.execute(connection.kysely);
  const me = rows[0];
  if (!me?.super) return { setting: 'role' };
  return {
    setting: 'session_authorization',
    ...(connection.backend === 'pglite' && { restoreAfter: sqlText`SET SESSION AUTHORIZATION ${identifier(me.owner)}` }),
  };
}
