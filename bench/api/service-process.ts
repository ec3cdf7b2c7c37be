/**
 * The service as operators run it: the `gatehouse` command for setup (migrate, import lists,
 * create an organization and a key) and `npm start`'s command line for serving, each its own
 * process with only the environment it is given. Benchmarks measure this process from outside.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/gatehouse.js');
/** As `npm start` runs it (package.json): a 32 MiB young generation keeps collector pauses out of the tail. */
const SERVE_ARGS = ['--max-semi-space-size=32', BIN, 'serve'];
/** Enough of the server's output to explain a failure, without keeping a whole run's logs. */
const KEPT_OUTPUT_CHARS = 20_000;

export type ServiceProcess = { pid: number; baseUrl: string; output(): string; stop(): Promise<void> };

/** Servers still running when this process exits, even by an uncaught exception, are killed with it. */
const liveServers = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of liveServers) child.kill('SIGKILL');
});

/**
 * Only what the child needs, so the developer's variables do not leak in; no sandbox organization,
 * and no download of the official lists (the benchmark imports the files it names).
 */
function childEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SANDBOX_BOOTSTRAP: 'false', LISTS_AUTO_UPDATE: 'false', ...env };
}

/** Runs `gatehouse ARGS…` to completion and returns its stdout parsed as JSON; throws with its stderr. */
export function gatehouse<T = unknown>(args: string[], env: Record<string, string>, timeoutMs = 300_000): T {
  const result = spawnSync(process.execPath, [BIN, ...args], { env: childEnv(env), encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 2 ** 20 });
  if (result.status !== 0) {
    throw new Error(`gatehouse ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${result.stderr.slice(-4000)}`);
  }
  return JSON.parse(result.stdout) as T;
}

/** Node.js options that write the service's CPU profile under bench/results/profiles/ when asked (read it with bench/load/profile-summary.ts). */
export const cpuProfileArgs = (wanted: boolean): string[] => (wanted ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve('bench/results/profiles')}`] : []);

export type StartOptions = {
  /** More Node.js options before the script (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** The CPUs the process may run on (taskset's list, e.g. "1"), so a load generator can keep to others. */
  cpus?: string;
  timeoutMs?: number;
};

/** Starts `gatehouse serve` on a free port and resolves once it says it is listening. */
export async function startService(env: Record<string, string>, options: StartOptions = {}): Promise<ServiceProcess> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const args = [...(options.nodeArgs ?? []), ...SERVE_ARGS];
  const [file, argv] = options.cpus ? ['taskset', ['-c', options.cpus, process.execPath, ...args]] : [process.execPath, args];
  const child = spawn(file, argv, { env: childEnv({ HOST: '127.0.0.1', PORT: '0', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  // Always drained: a child whose log pipe fills up stops answering.
  const keep = (chunk: string) => (output = (output + chunk).slice(-KEPT_OUTPUT_CHARS));
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  liveServers.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => liveServers.delete(child));
  const service = { pid: child.pid as number, output: () => output, stop: () => stopChild(child, exited) };
  try {
    const address = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`gatehouse serve did not listen within ${timeoutMs / 1000} s`)), timeoutMs);
      let pending = '';
      child.stdout?.on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        const line = lines.find((l) => l.includes('"gatehouse is listening"'));
        if (line) {
          clearTimeout(timer);
          resolve(JSON.parse(line).address as string);
        }
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`gatehouse serve exited with ${child.exitCode}`));
      });
    });
    return { ...service, baseUrl: `${address}/api` };
  } catch (error) {
    await service.stop();
    throw new Error(`${(error as Error).message}:\n${output.slice(-4000)}`);
  }
}

/** SIGTERM, then SIGKILL if the graceful shutdown takes longer than it may. */
async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(killer);
}

/** Polls /api/readyz until every check passes (database, migrations, lists loaded and indexed). */
export async function waitUntilReady(baseUrl: string, timeoutMs = 120_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  let last = '';
  while (performance.now() < deadline) {
    try {
      const response = await fetch(`${baseUrl}/readyz`);
      last = `${response.status} ${await response.text()}`;
      if (response.ok) return;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${baseUrl}/readyz was not ready within ${timeoutMs / 1000} s; last answer: ${last}`);
}
