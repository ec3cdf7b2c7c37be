/**
 * bench:api's figures as Markdown: for one database, the run (offered and achieved rate, latency
 * percentiles from due time to answer, refusals by status, errors, what the server and the
 * database spent) and the same latencies for each kind of subject, with the target's verdict.
 */
import type { LoadResult } from './paced-load.ts';
import type { UsageDelta } from './process-usage.ts';

export const TARGET_P95_MS = 20;
export const TARGET_RATE = 200;

export type DatabaseRun = {
  database: string;
  lists: { count: number; entities: number };
  importSeconds: number;
  startSeconds: number;
  warmUpSeconds: number;
  connections: number;
  load: LoadResult;
  server: UsageDelta;
  /** PostgreSQL's own processes, when the run started them. */
  databaseServer?: UsageDelta;
  /** The load generator's own CPU (it shares the machine with the server). */
  generatorCpuPercent: number;
  /** The 1-minute load average as the measured run began: other work on the machine shows here. */
  machineLoad: number;
  /** Answers with outcome potential_match, by kind of subject. */
  potentialMatches: Map<string, number>;
};

type Summary = { count: number; p50: number; p95: number; p99: number; max: number };

export function summarize(sorted: readonly number[]): Summary {
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] ?? 0;
  return { count: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1] ?? 0 };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/**
 * The issue's target: p95 under 20 ms at 200 requests a second. Met when p95 is under it, the
 * offered rate (at least 200/s) held within 2%, and every request was answered.
 */
export function verdict(run: DatabaseRun): string {
  const { load } = run;
  const p95 = summarize([...load.latenciesMs.values()].flat().sort((a, b) => a - b)).p95;
  const failures = [...load.statusCounts].filter(([status]) => status >= 300).reduce((sum, [, n]) => sum + n, 0) + load.connectionErrors + load.timeouts;
  const target = `p95 under ${TARGET_P95_MS} ms at ${TARGET_RATE}/s`;
  if (load.offeredRate < TARGET_RATE) return `${target}: not judged, this run offered ${load.offeredRate}/s`;
  const misses = [
    ...(p95 >= TARGET_P95_MS ? [`p95 ${ms(p95)}`] : []),
    ...(load.achievedRate < 0.98 * load.offeredRate ? [`achieved ${load.achievedRate.toFixed(1)}/s`] : []),
    ...(failures > 0 ? [`${failures} requests not answered 2xx`] : []),
  ];
  return misses.length === 0 ? `${target}: **met** (p95 ${ms(p95)} at ${load.offeredRate}/s)` : `${target}: **missed** (${misses.join(', ')})`;
}

export function runTable(run: DatabaseRun, seconds: number): string[] {
  const { load, server, databaseServer } = run;
  const all = summarize([...load.latenciesMs.values()].flat().sort((a, b) => a - b));
  const refusals = [...load.statusCounts].filter(([status]) => status >= 300).map(([status, n]) => `${n} × ${status}`);
  const matches = [...run.potentialMatches.values()].reduce((sum, n) => sum + n, 0);
  const byKind = [...load.latenciesMs]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, values]) => {
      const s = summarize(values);
      return `| ${kind} | ${s.count.toLocaleString('en')} | ${run.potentialMatches.get(kind) ?? 0} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${ms(s.max)} |`;
    });
  return [
    `${run.database[0]?.toUpperCase()}${run.database.slice(1)}. Lists: ${run.lists.count} imported with \`gatehouse lists import\` (${run.lists.entities.toLocaleString('en')} entities) in ${run.importSeconds.toFixed(1)} s; the service was ready ${run.startSeconds.toFixed(1)} s after its start.`,
    `${seconds} s measured after ${run.warmUpSeconds} s of warm-up at the same rate, ${run.connections} keep-alive connections, each request due at a fixed time (latency counts from that time, see bench/api/paced-load.ts); the load generator runs on the same cores (${run.generatorCpuPercent}% of a core); load average ${run.machineLoad.toFixed(2)} as the run began.`,
    '',
    `| offered | achieved | answered | p50 | p95 | p99 | max | refused | errors, timeouts | sent late | server CPU | server RSS before → after (peak) |${databaseServer ? ' PostgreSQL CPU |' : ''}`,
    `|---|---|---|---|---|---|---|---|---|---|---|---|${databaseServer ? '---|' : ''}`,
    `| ${load.offeredRate}/s | ${load.achievedRate.toFixed(1)}/s | ${all.count.toLocaleString('en')} | ${ms(all.p50)} | ${ms(all.p95)} | ${ms(all.p99)} | ${ms(all.max)} | ${refusals.join(', ') || 'none'} | ${load.connectionErrors}, ${load.timeouts} | ${load.lateSends} | ${server.cpuPercent}% of a core | ${server.rssBeforeMiB} → ${server.rssAfterMiB} MiB (${server.peakRssMiB}) |${databaseServer ? ` ${databaseServer.cpuPercent}% of a core |` : ''}`,
    '',
    '| subjects | answered | potential_match | p50 | p95 | p99 | max |',
    '|---|---|---|---|---|---|---|',
    ...byKind,
    '',
    `Target, ${verdict(run)}. ${matches.toLocaleString('en')} of ${all.count.toLocaleString('en')} answers were potential_match (each opens an adjudication case). ${cpuPerAnswer(run)}`,
    ...[...load.sampleErrorBodies].map(([status, body]) => `A ${status} answered: \`${body.replace(/\s+/g, ' ').slice(0, 300)}\``),
  ];
}

/** CPU time per answered request: what bounds the rate one server process can sustain. */
function cpuPerAnswer({ server, databaseServer, load }: DatabaseRun): string {
  const perAnswer = (usage: UsageDelta) => `${((usage.cpuPercent * 10) / Math.max(load.achievedRate, 1)).toFixed(1)} ms`;
  return `CPU per answer: ${perAnswer(server)} in the server${databaseServer ? `, ${perAnswer(databaseServer)} in PostgreSQL` : ''}.`;
}
