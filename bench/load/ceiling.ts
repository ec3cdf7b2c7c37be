/**
 * The ceiling: what this machine answers at all over HTTP with the same generator settings, so
 * every figure of the service is also a ratio to it. Two servers, stepped like the service:
 * a bare Node.js `http` server (bench/load/bare-server.ts) and the service's own
 * `GET /api/healthz` (Fastify, hooks, logging, no database).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type StepResult, type StepSettings, stepUp } from './steps.ts';

export const CEILING_RATES = [1000, 2000, 4000, 6000, 8000, 12_000, 16_000, 24_000];

export type Ceiling = { bare: StepResult[]; healthz: StepResult[] };

type Bare = { pid: number; baseUrl: string; stop(): Promise<void> };

async function startBareServer(cpus: string | undefined): Promise<Bare> {
  const script = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bare-server.ts');
  const args = ['--import', 'tsx', script];
  const [file, argv] = cpus ? ['taskset', ['-c', cpus, process.execPath, ...args]] : [process.execPath, args];
  const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.once('exit', () => child.kill('SIGKILL'));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').once('data', (line: string) => resolve(JSON.parse(line).port as number));
    void exited.then(() => reject(new Error('the bare server exited before listening')));
  });
  return {
    pid: child.pid as number,
    baseUrl: `http://127.0.0.1:${port}/ceiling`,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function measureCeiling(
  service: { baseUrl: string; pids: readonly number[] },
  options: { cpus?: string; settings: StepSettings; rates?: readonly number[]; log: (line: string) => void },
): Promise<Ceiling> {
  const rates = options.rates ?? CEILING_RATES;
  const bare = await startBareServer(options.cpus);
  try {
    options.log('ceiling: a bare node:http server');
    const bareSteps = await stepUp(
      { baseUrl: bare.baseUrl, headers: {}, requests: [{ tag: 'bare', method: 'GET', path: '' }], serverPids: [bare.pid] },
      rates,
      options.settings,
      options.log,
    );
    options.log('ceiling: GET /api/healthz');
    const healthz = await stepUp(
      { baseUrl: service.baseUrl, headers: {}, requests: [{ tag: 'healthz', method: 'GET', path: '/healthz' }], serverPids: service.pids },
      rates,
      options.settings,
      options.log,
    );
    return { bare: bareSteps, healthz };
  } finally {
    await bare.stop();
  }
}
