/**
 * Citus as a migration target: where each table goes, decided by what the table declares.
 *
 * On a database with the `citus` extension the migrator runs every migration as on PostgreSQL
 * (with CITUS_MIGRATION_SETTINGS), then, in one transaction at the end of the run, places every
 * table Citus does not know yet (PLACE_NEW_TABLES). The rule reads what each table's migration
 * declares:
 *
 * - a tenant table (`enable_tenant_isolation` gave it the `tenant_isolation` policy) whose every
 *   unique key includes `organization_id` is distributed on `organization_id`, colocated with
 *   the other tenant tables, so one organization's rows of every table live on one worker and a
 *   tenant transaction is routed to that worker;
 * - every other table is a reference table, a copy on every node: `organizations`, the lists,
 *   and the tenant tables with a key unique across organizations (`api_keys.secret_hash`,
 *   `console_users.email`), which are looked up before the organization is known;
 * - except an UNLOGGED table, which is left where it is, an ordinary table on the coordinator.
 *   Unlogged is how a migration declares the service's scratch state (`limit_buckets`, the shared
 *   rate limits), which a crash may empty and which no tenant transaction joins. Written by
 *   nearly every request, as a reference table each write would be a two-phase commit to every
 *   node; on the coordinator it is one local statement, as on PostgreSQL.
 *
 * Placed at the end of the run, not table by table: a migration may still change a table an
 * earlier one created in ways Citus refuses on a distributed or reference table (0003 adds
 * columns with unnamed CHECK constraints to `organizations`), and migrations are never edited.
 * The ordering trap (making `organizations` a reference table while ordinary tables reference it
 * turns them into Citus-local tables) is avoided by placing the tables together: the foreign keys
 * of the tables being placed are dropped, the tables placed, and the keys added back, so the
 * order of placing does not matter. A later run places the tables its migrations create.
 */
import type { Session } from './connection.ts';

/** The Citus releases the migrations and the statements are known to work on (column grants need 13.1). */
export const SUPPORTED_CITUS = { from: [13, 1], below: [14, 0] } as const;

/** The installed Citus version (`13.2-1`), or null when the database has no citus extension. */
export async function citusVersion(session: Session): Promise<string | null> {
  const rows = await session.query<{ version: string }>("SELECT extversion AS version FROM pg_extension WHERE extname = 'citus'");
  return rows[0]?.version ?? null;
}

/** Why Gatehouse refuses this Citus release, naming what it supports; null for a supported one. */
export function unsupportedCitus(version: string): string | null {
  const [major = Number.NaN, minor = Number.NaN] = version.split(/[.-]/).map(Number);
  const atLeast = (a: readonly number[]) => major > (a[0] as number) || (major === a[0] && minor >= (a[1] as number));
  if (atLeast(SUPPORTED_CITUS.from) && !atLeast(SUPPORTED_CITUS.below)) return null;
  const [from, below] = [SUPPORTED_CITUS.from.join('.'), SUPPORTED_CITUS.below.join('.')];
  return `Citus ${version} is not supported: Gatehouse migrates Citus ${from} or later, below ${below}`;
}

/**
 * Settings each migration's transaction takes on Citus: triggers on distributed tables (they
 * run on the shard, beside the organization's other shards); one connection per worker, so DDL
 * after a reference table was touched is not refused; and no automatic Citus-local tables: a new
 * table referencing `organizations` stays an ordinary table until PLACE_NEW_TABLES places it
 * (converted, Citus sends the migration's whole text to the workers, which refuse it as more
 * than one command).
 */
export const CITUS_MIGRATION_SETTINGS = `
  SET LOCAL citus.enable_unsafe_triggers TO on;
  SET LOCAL citus.multi_shard_modify_mode TO 'sequential';
  SET LOCAL citus.enable_local_reference_table_foreign_keys TO off;`;

/** Distributes or replicates every table of the schema Citus does not know yet (see the file's comment). */
export const PLACE_NEW_TABLES = `
DO $place$
DECLARE
  t regclass;
  fk record;
  keys text[] := '{}';
BEGIN
  CREATE TEMPORARY TABLE gatehouse_unplaced ON COMMIT DROP AS
    SELECT c.oid::regclass AS t
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
       AND c.relpersistence = 'p' -- an unlogged table stays on the coordinator (see the file's comment)
       AND c.relname <> 'gatehouse_migrations'
       AND NOT EXISTS (SELECT 1 FROM pg_dist_partition p WHERE p.logicalrelid = c.oid);
  FOR fk IN SELECT con.conrelid::regclass AS t, con.conname, pg_get_constraintdef(con.oid) AS def
              FROM pg_constraint con WHERE con.contype = 'f' AND con.conrelid IN (SELECT u.t FROM gatehouse_unplaced u)
             ORDER BY con.oid
  LOOP
    keys := keys || format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.t, fk.conname, fk.def);
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.t, fk.conname);
  END LOOP;
  FOR t IN SELECT u.t FROM gatehouse_unplaced u ORDER BY u.t::oid LOOP
    IF EXISTS (SELECT 1 FROM pg_policy WHERE polrelid = t AND polname = 'tenant_isolation')
       AND NOT EXISTS (
         SELECT 1 FROM pg_index i
          WHERE i.indrelid = t AND i.indisunique
            AND NOT EXISTS (SELECT 1 FROM pg_attribute a
                             WHERE a.attrelid = t AND a.attname = 'organization_id' AND a.attnum = ANY (i.indkey)))
    THEN
      PERFORM create_distributed_table(t, 'organization_id', colocate_with => 'default');
    ELSE
      PERFORM create_reference_table(t);
    END IF;
  END LOOP;
  FOR i IN 1 .. coalesce(array_length(keys, 1), 0) LOOP
    EXECUTE keys[i];
  END LOOP;
END
$place$;`;

/**
 * What tenant transactions need of the cluster. The runtime role must log in to the workers: the
 * coordinator opens their connections as the role the transaction runs as. It gets LOGIN and no
 * password; the operator gives it one and the coordinator's credentials for it (ARCHITECTURE.md,
 * "Citus"), or trusts it on a private network. (The tenant settings travel to the workers because
 * each tenant transaction sets `citus.propagate_set_commands` first: tenant-settings.ts.)
 */
export const TENANT_TRANSACTIONS_ON_CITUS = `
DO $tenant$
BEGIN
  IF NOT (SELECT rolcanlogin FROM pg_roles WHERE rolname = 'gatehouse_runtime') THEN
    ALTER ROLE gatehouse_runtime LOGIN;
  END IF;
END
$tenant$;`;
