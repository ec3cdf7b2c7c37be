/**
 * npm run bench:limits [-- --rate R] [--seconds S] [--callers K] [--database-url URL] [--no-write]
 *
 * What the rate limits cost a request on PostgreSQL, where every process shares them
 * (src/http/shared-limits.ts), against keeping them in the process's memory as the embedded
 * database does (and every process did before). Each request goes through the limits as the
 * API's authentication sends it (src/http/authentication.ts): an attempt from the caller's
 * address, released after a good credential, then a token from the credential's bucket, through
 * the real RateLimiter. R requests a second (default 2,000) at fixed times, from K callers (default
 * 100, each its own credential and address, so each well under its rate), for S seconds (default
 * 10) after 2 s of warm-up, for each way in bench/limits/ways.ts. Reported per request: the
 * statements sent, the limits' own time (p50, p99), this process's CPU and PostgreSQL's (a
 * throwaway cluster's, when it started one; --database-url or DATABASE_URL is used as given and
 * migrated). The HTTP request around them is not measured: bench:api does that.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createDatabase, type Database } from '../src/db/database.ts';
import { openPostgresConnection } from '../src/db/postgres-connection.ts';
import { createRateLimiter } from '../src/http/rate-limit.ts';
import { postgresDatabase } from './api/databases.ts';
import { sampleUsage } from './api/process-usage.ts';
import { summarize } from './api/report.ts';
import { recordBenchmark } from './benchmarks-file.ts';
import { countedBuckets, WAYS, type Way } from './limits/ways.ts';
import { exitOnUsageProblem, positiveInteger } from './matching/eval-data.ts';
import { running, stopEverything } from './running-processes.ts';

const WARM_UP_SECONDS = 2;
/** Requests are started in batches this often, each at its due time. */
const TICK_MS = 5;

type Figures = { way: string; requests: number; refused: number; statements: number; latencies: number[]; cpuMs: number; databaseCpuMs?: number };

try {
  const { values } = parseArgs({
    options: {
      rate: { type: 'string', default: '2000' },
      seconds: { type: 'string', default: '10' },
      callers: { type: 'string', default: '100' },
      'database-url': { type: 'string' },
      write: { type: 'boolean', default: true },
    },
    allowNegative: true,
  });
  const settings = {
    rate: positiveInteger('--rate', values.rate),
    seconds: positiveInteger('--seconds', values.seconds),
    callers: positiveInteger('--callers', values.callers),
  };
  // Bench scripts are not the service: reading DATABASE_URL here is the script's own option, as in bench:api.
  const database = await postgresDatabase(values['database-url'] ?? process.env.DATABASE_URL);
  if ('skipped' in database) {
    process.stderr.write(`bench:limits: ${database.skipped}\n`);
    process.exit(0);
  }
  running.push(database.close);
  const db = await createDatabase(await openPostgresConnection({ url: database.env.DATABASE_URL as string, poolSize: 10 }), { statementTimeoutMs: 10_000 });
  running.push(db.close);
  await db.migrate();
  const machineLoad = os.loadavg()[0] ?? 0;
  const results: Figures[] = [];
  for (const [index, way] of WAYS.entries()) {
    process.stderr.write(`bench:limits: ${way.name}\n`);
    results.push(await measure(db, way, `run${index}`, settings, database.serverPids));
  }
  const table = [
    `${database.label}. ${settings.rate} requests a second at fixed times from ${settings.callers} callers (each its own credential and address), ${settings.seconds} s measured after ${WARM_UP_SECONDS} s of warm-up, for each way; the limits only, as the API's authentication calls them, no HTTP. Load average ${machineLoad.toFixed(2)} as the run began.`,
    '',
    '| way | requests | refused | statements a request | limits p50 | limits p99 | this process, CPU a request | PostgreSQL, CPU a request |',
    '|---|---|---|---|---|---|---|---|',
    ...results.map((r) => {
      const latency = summarize([...r.latencies].sort((a, b) => a - b));
      const perRequest = (ms: number | undefined) => (ms === undefined ? 'not measured' : `${((1000 * ms) / r.requests).toFixed(0)} µs`);
      return `| ${r.way} | ${r.requests.toLocaleString('en')} | ${r.refused} | ${(r.statements / r.requests).toFixed(3)} | ${latency.p50.toFixed(3)} ms | ${latency.p99.toFixed(3)} ms | ${perRequest(r.cpuMs)} | ${perRequest(r.databaseCpuMs)} |`;
    }),
  ];
  console.log(`\n${table.join('\n')}`);
  if (values.write) recordBenchmark('Rate limits shared on PostgreSQL: what they cost a request', 'npm run bench:limits', table);
} catch (error) {
  await stopEverything();
  exitOnUsageProblem('bench:limits', error);
} finally {
  await stopEverything();
}

async function measure(db: Database, way: Way, run: string, settings: { rate: number; seconds: number; callers: number }, serverPids: () => number[]) {
  const counted = countedBuckets(db.limitBuckets);
  const limiter = createRateLimiter({ rateLimitPerSecond: { defense: way.rate, enterprise: way.rate }, authFailuresPerMinute: 30 }, way.store(counted.buckets));
  const reply = { header: () => reply } as never;
  const callers = Array.from({ length: settings.callers }, (_, i) => ({
    address: `${run}-10.0.${Math.floor(i / 250)}.${i % 250}`,
    actor: { kind: 'api_key', organizationId: `org_${run}`, id: `key_${i}`, tier: 'enterprise' } as never,
  }));
  // At 30 failures a minute, 15 take 30 s to come back: longer than the run.
  for (const { address } of callers) for (let i = 0; i < way.failuresBefore; i++) await (await limiter.attempt(address)).failed();

  /** One request's limits, as authentication.ts runs them for a good credential; its time, or undefined when refused. */
  const once = async (caller: (typeof callers)[number]) => {
    const started = performance.now();
    try {
      const attempt = await limiter.attempt(caller.address);
      await attempt.release();
      await limiter.admit(caller.actor, reply);
      return performance.now() - started;
    } catch {
      return undefined;
    }
  };
  const drive = async (seconds: number) => {
    const latencies: number[] = [];
    const pending: Promise<void>[] = [];
    let refused = 0;
    const start = performance.now();
    for (let sent = 0; sent < settings.rate * seconds; ) {
      const due = Math.floor(((performance.now() - start) / 1000) * settings.rate);
      for (; sent < Math.min(due, settings.rate * seconds); sent++) {
        const caller = callers[sent % callers.length] as (typeof callers)[number];
        pending.push(once(caller).then((ms) => (ms === undefined ? refused++ : latencies.push(ms), undefined)));
      }
      await new Promise((resolve) => setTimeout(resolve, TICK_MS));
    }
    await Promise.all(pending);
    return { latencies, refused, requests: settings.rate * seconds };
  };

  await drive(WARM_UP_SECONDS);
  const statementsBefore = counted.sent();
  const cpuBefore = process.cpuUsage();
  const databaseBefore = sampleUsage(serverPids());
  const measured = await drive(settings.seconds);
  const cpu = process.cpuUsage(cpuBefore);
  const databasePids = serverPids();
  return {
    way: way.name,
    ...measured,
    statements: counted.sent() - statementsBefore,
    cpuMs: (cpu.user + cpu.system) / 1000,
    ...(databasePids.length > 0 && { databaseCpuMs: (sampleUsage(databasePids).cpuSeconds - databaseBefore.cpuSeconds) * 1000 }),
  };
}
