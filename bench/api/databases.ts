/**
 * The databases a benchmark runs the service on, each a fresh place to keep its data: the
 * embedded database in a new temporary DATA_DIR, and PostgreSQL, either the server a
 * DATABASE_URL names (used as given) or a throwaway cluster when the PostgreSQL 15 binaries are
 * installed. Without either, PostgreSQL is skipped with the reason, not failed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { citusVersion } from '../../src/db/citus.ts';
import { clusterUnavailable, startCluster } from './postgres-cluster.ts';
import { processAndChildren } from './process-usage.ts';

export type BenchDatabase = {
  label: string;
  /** What kind of server it is, for a heading: embedded PGlite, PostgreSQL, or Citus and its version. */
  engine: string;
  /** What the service and the CLI need to use it (DATA_DIR or DATABASE_URL). */
  env: Record<string, string>;
  /** The database server's processes now (postmaster and backends), when this run started them: their CPU is part of the cost. */
  serverPids(): number[];
  close(): void;
};

export function embeddedDatabase(): BenchDatabase {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-data-'));
  return {
    label: 'embedded PGlite',
    engine: 'embedded PGlite',
    env: { DATA_DIR: dataDir },
    serverPids: () => [],
    close: () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** PostgreSQL at `givenUrl`, else a throwaway cluster, else the reason there is none. */
export async function postgresDatabase(givenUrl: string | undefined): Promise<BenchDatabase | { skipped: string }> {
  if (givenUrl) {
    // The caller's database is used as it is: lists already there import as "unchanged", and each run adds an organization.
    const citus = await citusVersionAt(givenUrl);
    const engine = citus ? `Citus ${citus}` : 'PostgreSQL';
    const label = `${engine} at ${new URL(givenUrl).host}${citus ? ' (the coordinator)' : ''}`;
    return { label, engine, env: { DATABASE_URL: givenUrl }, serverPids: () => [], close: () => {} };
  }
  const unavailable = clusterUnavailable();
  if (unavailable) return { skipped: `PostgreSQL skipped: no DATABASE_URL (or --database-url) was given and ${unavailable}` };
  const cluster = await startCluster();
  return {
    label: `PostgreSQL ${cluster.version} (throwaway local cluster, fsync off)`,
    engine: 'PostgreSQL',
    env: { DATABASE_URL: cluster.url },
    serverPids: () => {
      const pid = cluster.postmasterPid();
      return pid === undefined ? [] : processAndChildren(pid);
    },
    close: cluster.close,
  };
}

/** The Citus extension's version in the database at `url` (`13.2-1`), or undefined on plain PostgreSQL: the migrator's own question. */
async function citusVersionAt(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const session = { exec: async () => {}, query: async <Row>(text: string) => (await client.query(text)).rows as Row[] };
    return (await citusVersion(session)) ?? undefined;
  } finally {
    await client.end();
  }
}

/** The databases a run asked for (`--only`, else both), opened one after the other; one that cannot be had is said and skipped. */
export async function* openDatabases(
  only: string | undefined,
  postgresUrl: string | undefined,
  say: (text: string) => void,
): AsyncGenerator<{ name: 'embedded' | 'postgres'; database: BenchDatabase }> {
  for (const name of ['embedded', 'postgres'] as const) {
    if (only && only !== name) continue;
    const database = name === 'embedded' ? embeddedDatabase() : await postgresDatabase(postgresUrl);
    if ('skipped' in database) say(database.skipped);
    else yield { name, database };
  }
}
