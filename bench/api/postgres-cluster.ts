/**
 * A throwaway PostgreSQL cluster for a benchmark run, started as CI starts its own (.ci/run):
 * initdb with trust authentication, a free port on 127.0.0.1, the socket in its own /tmp folder,
 * fsync off (the figures are about the service, not this machine's disk). PostgreSQL refuses to
 * run as root, so as root the cluster runs as the `postgres` user. Stopped and deleted by close().
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';

export type PostgresCluster = { url: string; version: string; postmasterPid(): number | undefined; close(): void };

/** Why no cluster can be started here, or undefined when one can. */
export function clusterUnavailable(): string | undefined {
  if (!fs.existsSync(path.join(POSTGRES_BIN, 'initdb'))) return `the PostgreSQL 15 server binaries are not at ${POSTGRES_BIN}`;
  if (isRoot() && spawnSync('id', ['postgres']).status !== 0) return 'running as root and there is no `postgres` user to run the cluster as';
  return undefined;
}

export async function startCluster(): Promise<PostgresCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-pg-'));
  const dataDir = path.join(dir, 'data');
  const asPostgres = (command: string, args: string[]) => {
    const result = runAsClusterOwner(command, args, dir);
    if (result.status !== 0) throw new Error(`${path.basename(command)} failed: ${result.stderr || result.stdout || result.error?.message}`);
    return result.stdout;
  };
  const pgCtl = path.join(POSTGRES_BIN, 'pg_ctl');
  let started = false;
  const close = () => {
    if (started) runAsClusterOwner(pgCtl, ['-D', dataDir, '-m', 'fast', '-w', 'stop'], dir);
    started = false;
    fs.rmSync(dir, { recursive: true, force: true });
    process.off('exit', close);
  };
  // Synchronous, so it also runs when this process ends by an uncaught exception or process.exit().
  process.on('exit', close);
  try {
    if (isRoot()) fs.chownSync(dir, uidOf('postgres'), -1);
    asPostgres(path.join(POSTGRES_BIN, 'initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    const port = await freePort();
    started = true;
    asPostgres(pgCtl, [
      '-D',
      dataDir,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      'start',
    ]);
    // "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"
    const version = /\(PostgreSQL\) (\S+)/.exec(asPostgres(path.join(POSTGRES_BIN, 'postgres'), ['--version']))?.[1] ?? '15';
    const postmasterPid = () => {
      const pidFile = path.join(dataDir, 'postmaster.pid');
      return fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]) : undefined;
    };
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, version, postmasterPid, close };
  } catch (error) {
    close();
    throw error;
  }
}

function runAsClusterOwner(command: string, args: string[], cwd: string) {
  const [file, argv] = isRoot() ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  return spawnSync(file, argv, { encoding: 'utf8', cwd });
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

function uidOf(user: string): number {
  return Number(spawnSync('id', ['-u', user], { encoding: 'utf8' }).stdout.trim());
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
