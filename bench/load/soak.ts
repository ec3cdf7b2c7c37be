/**
 * The soak: one fixed rate for a long time, the mix unchanged, watching what would grow if
 * something leaked: the server's resident memory, its event-loop delay (the p99 and max of each
 * interval, from the service's own /api/metrics, which prom-client resets at every scrape) and
 * the database connections the service holds (PostgreSQL's pg_stat_activity; the embedded
 * database has exactly one, in process). Zero errors is part of the verdict.
 */
import pg from 'pg';
import { driveAtFixedRate } from '../api/paced-load.ts';
import { sampleUsage } from '../api/process-usage.ts';
import { summarize } from '../api/report.ts';
import { connectionsFor, type LatencySummary, type Target } from './steps.ts';

export type SoakSample = { atSeconds: number; rssMiB: number; eventLoopP99Ms: number; eventLoopMaxMs: number; databaseConnections: number | null };

export type SoakResult = {
  rate: number;
  seconds: number;
  warmUpSeconds: number;
  achievedRate: number;
  all: LatencySummary;
  refusals: Record<string, number>;
  connectionErrors: number;
  timeouts: number;
  samples: SoakSample[];
  /** RSS at the end against RSS when warm-up ended. */
  rssGrowthPercent: number;
  loadAverage: number;
};

const SAMPLE_EVERY_MS = 10_000;

/**
 * The named metrics from one scrape: prom-client resets the event-loop histogram at every scrape,
 * so a second request for the max would read an empty interval (it read 0 ms beside a p99 of 20).
 */
async function metrics(baseUrl: string, names: readonly string[]): Promise<number[]> {
  try {
    const lines = (await (await fetch(`${baseUrl}/metrics`)).text()).split('\n');
    return names.map((name) => {
      const line = lines.find((l) => l.startsWith(`${name} `));
      return line ? Number(line.split(' ')[1]) : Number.NaN;
    });
  } catch {
    return names.map(() => Number.NaN);
  }
}

async function databaseConnections(databaseUrl: string | undefined): Promise<number | null> {
  if (!databaseUrl) return null;
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'gatehouse'");
    return rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

export async function soak(
  target: Target,
  options: { rate: number; seconds: number; warmUpSeconds: number; databaseUrl?: string; loadAverage: number; log: (line: string) => void },
): Promise<SoakResult> {
  const samples: SoakSample[] = [];
  const started = performance.now();
  const sample = async () => {
    const [[eventLoopP99 = Number.NaN, eventLoopMax = Number.NaN], connections] = await Promise.all([
      metrics(target.baseUrl, ['gatehouse_nodejs_eventloop_lag_p99_seconds', 'gatehouse_nodejs_eventloop_lag_max_seconds']),
      databaseConnections(options.databaseUrl),
    ]);
    const s: SoakSample = {
      atSeconds: Math.round((performance.now() - started) / 1000),
      rssMiB: sampleUsage(target.serverPids).rssMiB,
      eventLoopP99Ms: eventLoopP99 * 1000,
      eventLoopMaxMs: eventLoopMax * 1000,
      databaseConnections: connections,
    };
    samples.push(s);
    options.log(
      `soak ${s.atSeconds} s: RSS ${s.rssMiB} MiB, event loop p99 ${s.eventLoopP99Ms.toFixed(1)} ms (max ${s.eventLoopMaxMs.toFixed(1)}), database connections ${s.databaseConnections ?? 'n/a'}`,
    );
  };
  await sample(); // also resets the event-loop histogram
  const timer = setInterval(() => void sample().catch((error: Error) => options.log(`soak: a sample failed: ${error.message}`)), SAMPLE_EVERY_MS);
  let load: Awaited<ReturnType<typeof driveAtFixedRate>>;
  try {
    load = await driveAtFixedRate({
      baseUrl: target.baseUrl,
      headers: target.headers,
      requests: target.requests,
      rate: options.rate,
      connections: connectionsFor(options.rate),
      seconds: options.seconds,
    });
  } finally {
    clearInterval(timer);
  }
  await sample();
  const warm = samples.find((s) => s.atSeconds >= options.warmUpSeconds) ?? (samples[0] as SoakSample);
  const last = samples.at(-1) as SoakSample;
  return {
    rate: options.rate,
    seconds: options.seconds,
    warmUpSeconds: options.warmUpSeconds,
    achievedRate: load.achievedRate,
    all: summarize([...load.latenciesMs.values()].flat().sort((a, b) => a - b)),
    refusals: Object.fromEntries([...load.statusCounts].filter(([status]) => status >= 300).map(([status, n]) => [String(status), n])),
    connectionErrors: load.connectionErrors,
    timeouts: load.timeouts,
    samples,
    rssGrowthPercent: (100 * (last.rssMiB - warm.rssMiB)) / warm.rssMiB,
    loadAverage: options.loadAverage,
  };
}
