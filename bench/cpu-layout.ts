/**
 * Which CPUs each process of a benchmark keeps to (taskset lists), so that the load generator does
 * not take the core of the service it measures: on a machine with two or more CPUs the service
 * (its worker threads included) gets CPU 1 to itself, as far as a benchmark can arrange it; the
 * generator (and whatever else the benchmark itself runs, a list publisher) shares CPU 0 with
 * PostgreSQL. The embedded database runs inside the service's process, on CPU 1. In production
 * the clients are on other machines: a generator on the service's own core would measure the
 * generator as much as the service.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';

export type CpuLayout = { generator: string; server?: string; database?: string; described: string };

/**
 * `processes`: service processes behind a balancer, which keep to the one service's CPU with it,
 * so that one and several compare on the same cores. `foreignDatabase`: a PostgreSQL server the
 * benchmark did not start, whose processes it leaves where they are.
 */
export function cpuLayout(
  pin: boolean,
  database: 'embedded' | 'postgres',
  { processes = 1, foreignDatabase = false }: { processes?: number; foreignDatabase?: boolean } = {},
): CpuLayout {
  if (!pin || os.cpus().length < 2) {
    return { generator: '0-1', described: 'No CPU pinning (--no-pin, or one CPU): generator, service and database shared the CPUs as the scheduler saw fit.' };
  }
  const service = processes > 1 ? `The ${processes} service processes and HAProxy ran together` : 'The service ran';
  const pinnedDatabase = database === 'postgres' && !foreignDatabase;
  const unpinned = database === 'postgres' && foreignDatabase ? ' PostgreSQL, a server the benchmark did not start, was not pinned.' : '';
  const described = `${service} on CPU 1; the load generator${pinnedDatabase ? ' and PostgreSQL' : ''} on CPU 0.${unpinned}`;
  return { generator: '0', server: '1', database: '0', described };
}

/** Moves this process (the generator) to its CPUs. */
export function pinGenerator(layout: CpuLayout) {
  spawnSync('taskset', ['-pc', layout.generator, String(process.pid)]);
}

/** Moves running processes (PostgreSQL's, every thread) to the database's CPUs; the backends they fork later inherit it. */
export function pinDatabase(layout: CpuLayout, pids: readonly number[]) {
  if (!layout.database) return;
  for (const pid of pids) spawnSync('taskset', ['-apc', layout.database, String(pid)]);
}
