/**
 * The service as a deployment of many processes runs it: three `gatehouse serve` processes on one
 * PostgreSQL database (directly, or through PgBouncer in transaction mode), behind HAProxy, which
 * they trust to name the client (TRUST_PROXY=127.0.0.1). Each process migrates at start, so the
 * three take the migration lock together.
 */
import path from 'node:path';
import { type Balancer, startHaproxy } from './haproxy.ts';
import { type PgBouncer, startPgBouncer } from './pgbouncer.ts';
import { processDatabase, runCliAsync, type ServerProcess, startServerProcess } from './server-process.ts';
import type { OwnerSql } from './test-database.ts';

export const PROCESSES = 3;

export type BalancedService = {
  /** The API through the balancer. */
  baseUrl: string;
  processes: ServerProcess[];
  /** What the CLI needs to reach the database as the processes do (through the pooler, if any). */
  env: Record<string, string>;
  /** SQL past row-level security, straight to PostgreSQL. */
  owner: OwnerSql;
  /** Runs a CLI command that must succeed, and parses its JSON. */
  cli(args: string[]): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
};

export async function startBalancedService(options: { pooled: boolean; env: Record<string, string> }): Promise<BalancedService> {
  const storage = await processDatabase();
  const stops: (() => Promise<unknown>)[] = [() => storage.cleanup()];
  const stop = async () => {
    while (stops.length > 0) await stops.pop()?.();
  };
  try {
    const databaseUrl = storage.env.DATABASE_URL as string;
    let pooler: PgBouncer | undefined;
    if (options.pooled) {
      pooler = await startPgBouncer([databaseUrl]);
      stops.push(() => (pooler as PgBouncer).stop());
    }
    const env = { DATABASE_URL: pooler ? pooler.through(databaseUrl) : databaseUrl, LOG_LEVEL: 'info' };
    const started = await Promise.allSettled(
      Array.from({ length: PROCESSES }, () =>
        startServerProcess({ ...env, TRUST_PROXY: '127.0.0.1', LISTS_DIR: path.resolve('test/fixtures/ofac'), ...options.env }),
      ),
    );
    const processes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    stops.push(async () => {
      for (const server of processes) await server.stop('SIGKILL');
    });
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    const balancer: Balancer = await startHaproxy(processes.map((p) => p.baseUrl));
    stops.push(() => balancer.stop());
    const cli = async (args: string[]) => {
      const run = await runCliAsync(args, { ...env, LOG_LEVEL: 'silent' });
      if (run.code !== 0) throw new Error(`gatehouse ${args.join(' ')} exited with ${run.code}: ${run.stderr}`);
      return JSON.parse(run.stdout) as Record<string, unknown>;
    };
    return { baseUrl: balancer.baseUrl, processes, env, owner: storage.owner as OwnerSql, cli, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
