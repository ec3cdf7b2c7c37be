/**
 * Stepped fixed arrival rates: the same planned requests at one rate after another, each step a
 * short warm-up at its rate (not counted) and then a measured run, until the answers degrade:
 * an error or a refusal appears, p99 reaches twice that of the first step, or the server no
 * longer keeps up with the offered rate. Each step says what it cost the server (and PostgreSQL)
 * and what else the machine was doing (the load average), so a figure can be judged.
 */
import os from 'node:os';
import { driveAtFixedRate, type LoadResult, type PlannedRequest } from '../api/paced-load.ts';
import { sampleUsage, usageBetween } from '../api/process-usage.ts';
import { summarize } from '../api/report.ts';

export type LatencySummary = ReturnType<typeof summarize>;

export type StepResult = {
  offeredRate: number;
  achievedRate: number;
  answered: number;
  all: LatencySummary;
  byTag: Record<string, LatencySummary>;
  /** Non-2xx answers by status, and errors that got no answer. */
  refusals: Record<string, number>;
  connectionErrors: number;
  timeouts: number;
  lateSends: number;
  connections: number;
  seconds: number;
  serverCpuPercent: number;
  serverRssMiB: number;
  serverPeakRssMiB: number;
  databaseCpuPercent?: number;
  generatorCpuPercent: number;
  /** The 1-minute load average as the step began. */
  loadAverage: number;
  sampleErrors: Record<string, string>;
  /** How this step degraded, when it did (stepping stops when its repeat degrades too). */
  stoppedBecause?: string;
  /** A second measurement of the same rate, after the first degraded. */
  repeated?: true;
};

export type Target = {
  baseUrl: string;
  headers: Record<string, string>;
  requests: readonly PlannedRequest[];
  /** The server's processes (one, or several and their balancer), and PostgreSQL's when it has them: what each step cost. */
  serverPids: readonly number[];
  databasePids?: () => number[];
};

export type StepSettings = { seconds: number; warmUpSeconds: number };

/** One connection per 100 ms of arrivals, as bench:api; capped, or the generator would spend its core opening sockets. */
export const connectionsFor = (rate: number) => Math.min(256, Math.max(10, Math.ceil(rate / 10)));

/** Where each target's planned requests go on from: no step resends the previous step's. */
const positions = new WeakMap<Target, number>();

export async function measureStep(target: Target, rate: number, settings: StepSettings): Promise<StepResult> {
  const connections = connectionsFor(rate);
  const load = { baseUrl: target.baseUrl, headers: target.headers, requests: target.requests, rate, connections };
  let nextRequest = positions.get(target) ?? 0;
  if (settings.warmUpSeconds > 0) nextRequest = (await driveAtFixedRate({ ...load, seconds: settings.warmUpSeconds, firstRequest: nextRequest })).nextRequest;
  const loadAverage = os.loadavg()[0] ?? 0;
  const serverBefore = sampleUsage(target.serverPids);
  const databaseBefore = target.databasePids && sampleUsage(target.databasePids());
  const generatorBefore = process.cpuUsage();
  const measured = await driveAtFixedRate({ ...load, seconds: settings.seconds, firstRequest: nextRequest });
  positions.set(target, measured.nextRequest);
  const server = usageBetween(serverBefore, sampleUsage(target.serverPids));
  const generator = process.cpuUsage(generatorBefore);
  const database = databaseBefore && target.databasePids && usageBetween(databaseBefore, sampleUsage(target.databasePids()));
  return {
    ...latencies(measured),
    connections,
    seconds: settings.seconds,
    serverCpuPercent: server.cpuPercent,
    serverRssMiB: server.rssAfterMiB,
    serverPeakRssMiB: server.peakRssMiB,
    ...(database && { databaseCpuPercent: database.cpuPercent }),
    generatorCpuPercent: Math.round((generator.user + generator.system) / 1e4 / settings.seconds),
    loadAverage,
  };
}

function latencies(load: LoadResult) {
  const all = summarize([...load.latenciesMs.values()].flat().sort((a, b) => a - b));
  const byTag = Object.fromEntries([...load.latenciesMs].sort(([a], [b]) => a.localeCompare(b)).map(([tag, values]) => [tag, summarize(values)]));
  const refusals = Object.fromEntries([...load.statusCounts].filter(([status]) => status >= 300).map(([status, n]) => [String(status), n]));
  const sampleErrors = Object.fromEntries([...load.sampleErrorBodies].map(([status, body]) => [String(status), body.replace(/\s+/g, ' ').slice(0, 300)]));
  return {
    offeredRate: load.offeredRate,
    achievedRate: load.achievedRate,
    answered: all.count,
    all,
    byTag,
    refusals,
    connectionErrors: load.connectionErrors,
    timeouts: load.timeouts,
    lateSends: load.lateSends,
    sampleErrors,
  };
}

export const failuresOf = (step: StepResult) => Object.values(step.refusals).reduce((sum, n) => sum + n, 0) + step.connectionErrors + step.timeouts;

/** Why stepping stops after `step`, or undefined to go on. */
export function stopReason(step: StepResult, first: StepResult): string | undefined {
  const failures = failuresOf(step);
  if (failures > 0) return `${failures} requests failed or were refused`;
  if (step.achievedRate < 0.97 * step.offeredRate) return `achieved ${step.achievedRate.toFixed(0)}/s of ${step.offeredRate}/s offered`;
  if (step !== first && step.all.p99 >= 2 * first.all.p99)
    return `p99 ${step.all.p99.toFixed(1)} ms, at least twice the first step's ${first.all.p99.toFixed(1)} ms`;
  return undefined;
}

/**
 * Runs `rates` in order until a step degrades. A degraded step is measured once more before it
 * counts (on a machine shared with other work a single step can catch someone else's burst); if
 * the repeat degrades too, stepping stops there, both kept, marked with the reason. Rates up to
 * `through` are measured whatever happens, so a target rate is always judged on its own step.
 */
export async function stepUp(
  target: Target,
  rates: readonly number[],
  settings: StepSettings,
  log: (line: string) => void,
  through = 0,
): Promise<StepResult[]> {
  const steps: StepResult[] = [];
  const measure = async (rate: number, again: boolean) => {
    const step = await measureStep(target, rate, settings);
    if (again) step.repeated = true;
    steps.push(step);
    log(
      `${rate}/s${again ? ' (again)' : ''}: achieved ${step.achievedRate.toFixed(0)}/s, p50 ${step.all.p50.toFixed(1)} p95 ${step.all.p95.toFixed(1)} p99 ${step.all.p99.toFixed(1)} max ${step.all.max.toFixed(1)} ms, ` +
        `${failuresOf(step)} failed, server ${step.serverCpuPercent}%${step.databaseCpuPercent !== undefined ? `, PostgreSQL ${step.databaseCpuPercent}%` : ''}, load ${step.loadAverage.toFixed(2)}`,
    );
    const reason = stopReason(step, steps[0] as StepResult);
    if (reason) step.stoppedBecause = reason;
    return reason;
  };
  for (const rate of rates) {
    if ((await measure(rate, false)) && (await measure(rate, true)) && rate >= through) break;
  }
  return steps;
}

/** The highest offered rate answered without failure, at the offered rate, with p95 under `p95Ms`. */
export function capacity(steps: readonly StepResult[], p95Ms: number): StepResult | undefined {
  return steps.filter((s) => failuresOf(s) === 0 && s.achievedRate >= 0.97 * s.offeredRate && s.all.p95 < p95Ms).at(-1);
}
