/**
 * npm run bench:lists-refresh [-- --rate R] [--seconds S] [--window S] [--only embedded|postgres]
 *                                [--database-url URL] [--data DIR] [--seed S] [--no-pin] [--cpu-prof] [--no-write]
 *
 * Does the service keep its lists current without getting in the way of screening? On each
 * database (a fresh DATA_DIR, then PostgreSQL as bench:api finds it), with a list publisher on
 * loopback serving every source from the real files (bench/lists-refresh/published-sets.ts):
 * 1. the service starts on an empty database and downloads the full set itself: wall time from
 *    listening to ready, and its peak RSS;
 * 2. POST /api/v1/prescreen at R requests a second (default 100), warm-up then S quiet seconds
 *    (default 20) while the service's checks find nothing new;
 * 3. the same load for a window of W seconds (default 60), two seconds into which the publisher
 *    starts serving a year-newer OFAC SDN: the service downloads, parses, diffs, writes and swaps
 *    it in while answering. The refresh lasts from the first byte requested to the first answer
 *    screened against the new version (read from the answers' list_versions).
 * p99 of the requests due during the refresh is set against the quiet p99 (target ≤ 1.5 ×).
 * The processes keep to their CPUs as in bench:load (bench/cpu-layout.ts: the service alone on CPU 1,
 * this process, which generates the load and plays the publisher, with PostgreSQL on CPU 0;
 * `--no-pin` lets the scheduler decide). Writes a section per database to BENCHMARKS.md. `--cpu-prof` writes the service's CPU profile under
 * bench/results/profiles/ (read it with bench/load/profile-summary.ts). Exit code 2 when the list data is missing or
 * an argument is wrong.
 */
import { parseArgs } from 'node:util';
import { startListPublisher } from '../test/helpers/list-publisher.ts';
import { type BenchDatabase, embeddedDatabase, postgresDatabase } from './api/databases.ts';
import { driveAtFixedRate, type PlannedRequest } from './api/paced-load.ts';
import { createBenchOrganization } from './api/prepared-service.ts';
import { buildPrescreenMix } from './api/prescreen-mix.ts';
import { resetPeakRss, sampleUsage } from './api/process-usage.ts';
import { cpuProfileArgs, gatehouse, type ServiceProcess, startService } from './api/service-process.ts';
import { recordBenchmark } from './benchmarks-file.ts';
import { cpuLayout, pinDatabase, pinGenerator } from './cpu-layout.ts';
import { laterSdnFetchedAt, publishEarlierSet, publishLaterSdn, SOURCE_COUNT, sourcesEnv } from './lists-refresh/published-sets.ts';
import { type DatabaseFigures, figuresTable, type Latencies, type Load, type Refresh } from './lists-refresh/report.ts';
import { listsOf, sdnVersionIn, waitForFirstLoad } from './lists-refresh/service-watch.ts';
import { exitOnUsageProblem, positiveInteger, resolveDataDir, UsageError } from './matching/eval-data.ts';
import { running, stopEverything } from './running-processes.ts';

const WARM_UP_SECONDS = 5;
/** Into the refresh window, when the publisher starts serving the new SDN. */
const SWITCH_AFTER_MS = 2_000;

try {
  const { values } = parseArgs({
    options: {
      rate: { type: 'string', default: '100' },
      seconds: { type: 'string', default: '20' },
      window: { type: 'string', default: '60' },
      only: { type: 'string' },
      'database-url': { type: 'string' },
      data: { type: 'string' },
      seed: { type: 'string', default: '20261124' },
      pin: { type: 'boolean', default: true },
      'cpu-prof': { type: 'boolean', default: false },
      write: { type: 'boolean', default: true },
    },
    allowNegative: true,
  });
  const settings = {
    rate: positiveInteger('--rate', values.rate),
    quietSeconds: positiveInteger('--seconds', values.seconds),
    windowSeconds: positiveInteger('--window', values.window),
    dataDir: resolveDataDir(values.data),
    nodeArgs: cpuProfileArgs(values['cpu-prof']),
    pin: values.pin,
  };
  if (values.only && !['embedded', 'postgres'].includes(values.only)) throw new UsageError('--only must be embedded or postgres');
  const total = settings.rate * (WARM_UP_SECONDS + settings.quietSeconds + settings.windowSeconds);
  const mix = await buildPrescreenMix(settings.dataDir, Math.ceil((total * 1.1) / 4), positiveInteger('--seed', values.seed));
  const requests: PlannedRequest[] = mix.map(({ category, body }) => ({ tag: category, method: 'POST', path: '/v1/prescreen', body }));

  const databases = [
    { name: 'embedded', open: async () => embeddedDatabase() },
    { name: 'postgres', open: () => postgresDatabase(values['database-url'] ?? process.env.DATABASE_URL) },
  ];
  for (const { name, open } of databases.filter((d) => !values.only || d.name === values.only)) {
    const database = await open();
    if ('skipped' in database) {
      process.stderr.write(`bench:lists-refresh: ${database.skipped}\n`);
      continue;
    }
    running.push(database.close);
    const figures = await measureOn(database, name === 'embedded' ? 'embedded' : 'postgres', requests, settings);
    await stopEverything();
    const table = figuresTable(figures);
    console.log(`\n## ${database.label}\n\n${table.join('\n')}`);
    if (values.write)
      recordBenchmark(`List refresh while screening, ${name === 'embedded' ? 'embedded PGlite' : 'PostgreSQL'}`, 'npm run bench:lists-refresh', table);
  }
} catch (error) {
  await stopEverything();
  exitOnUsageProblem('bench:lists-refresh', error);
} finally {
  await stopEverything();
}

type Settings = { rate: number; quietSeconds: number; windowSeconds: number; dataDir: string; nodeArgs: string[]; pin: boolean };

async function measureOn(database: BenchDatabase, kind: 'embedded' | 'postgres', requests: PlannedRequest[], settings: Settings): Promise<DatabaseFigures> {
  const cpus = cpuLayout(settings.pin, kind);
  pinGenerator(cpus);
  pinDatabase(cpus, database.serverPids());
  const publisher = await startListPublisher();
  running.push(publisher.close);
  publishEarlierSet(publisher, settings.dataDir);
  gatehouse(['migrate'], database.env);
  const { apiKey } = createBenchOrganization(database.env, 'bench:lists-refresh');
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };

  process.stderr.write(`bench:lists-refresh: ${database.label}: the service downloads every list\n`);
  const env = { ...database.env, ...sourcesEnv(publisher.base), LISTS_AUTO_UPDATE: 'true', LISTS_REFRESH_INTERVAL: '3s' };
  const databaseCpuBefore = sampleUsage(database.serverPids()).cpuSeconds;
  const service = await startService(env, { nodeArgs: settings.nodeArgs, ...(cpus.server && { cpus: cpus.server }) });
  running.push(service.stop);
  const firstLoad = await measureFirstLoad(service, headers, database, databaseCpuBefore);

  const load = { baseUrl: service.baseUrl, headers, requests, rate: settings.rate, connections: Math.max(10, Math.ceil(settings.rate / 10)) };
  process.stderr.write(`bench:lists-refresh: ${database.label}: ${settings.rate}/s, ${WARM_UP_SECONDS} s warm-up and ${settings.quietSeconds} s quiet\n`);
  const warmUp = await driveAtFixedRate({ ...load, seconds: WARM_UP_SECONDS });
  const quiet = await driveAtFixedRate({ ...load, seconds: settings.quietSeconds, firstRequest: warmUp.nextRequest });
  const before = (await listsOf(service.baseUrl, headers)).find((v) => v.list === 'OFAC_SDN');
  if (!before) throw new Error('the service loaded no OFAC_SDN version from the publisher');

  process.stderr.write(`bench:lists-refresh: ${database.label}: the same load for ${settings.windowSeconds} s while a new SDN is published\n`);
  const peakIsTheRefreshs = resetPeakRss(service.pid);
  const answers: { dueAt: number; latencyMs: number; ok: boolean }[] = [];
  let swappedAt: number | undefined;
  let switchedAt = Number.POSITIVE_INFINITY;
  const switchTimer = setTimeout(() => {
    switchedAt = performance.now();
    publishLaterSdn(publisher, settings.dataDir);
  }, SWITCH_AFTER_MS);
  const window = await driveAtFixedRate({
    ...load,
    seconds: settings.windowSeconds,
    firstRequest: quiet.nextRequest,
    onAnswer: (_tag, status, body) => {
      if (swappedAt === undefined && status === 201 && sdnVersionIn(body) !== before.version_id) swappedAt = performance.now();
    },
    onTimedAnswer: ({ status, dueAt, latencyMs }) => answers.push({ dueAt, latencyMs, ok: status < 300 }),
  });
  clearTimeout(switchTimer);
  const fetchedAt = laterSdnFetchedAt(publisher, switchedAt);
  const after = (await listsOf(service.baseUrl, headers)).find((v) => v.list === 'OFAC_SDN');
  const refresh: Refresh = {
    seconds: fetchedAt !== undefined && swappedAt !== undefined ? (swappedAt - fetchedAt) / 1000 : undefined,
    peakRssMiB: sampleUsage([service.pid]).peakRssMiB,
    peakIsTheRefreshs,
    changes: after && after.version_id !== before.version_id ? after.changes : undefined,
    fromEntities: before.entity_count,
    toEntities: after?.entity_count,
  };
  const inRefresh = (dueAt: number) => fetchedAt !== undefined && dueAt >= fetchedAt && dueAt <= (swappedAt ?? Number.POSITIVE_INFINITY);
  const ok = answers.filter((a) => a.ok);
  const latencies: Latencies = {
    quiet: [...quiet.latenciesMs.values()].flat(),
    duringRefresh: ok.filter((a) => inRefresh(a.dueAt)).map((a) => a.latencyMs),
    afterRefresh: ok.filter((a) => swappedAt !== undefined && a.dueAt > swappedAt).map((a) => a.latencyMs),
    refused: [...quiet.statusCounts, ...window.statusCounts].filter(([status]) => status >= 300).reduce((sum, [, n]) => sum + n, 0),
    errors: quiet.connectionErrors + quiet.timeouts + window.connectionErrors + window.timeouts,
  };
  return {
    database: database.label,
    pinning: cpus.described,
    rate: settings.rate,
    quietSeconds: settings.quietSeconds,
    windowSeconds: settings.windowSeconds,
    firstLoad,
    refresh,
    latencies,
  };
}

async function measureFirstLoad(service: ServiceProcess, headers: Record<string, string>, database: BenchDatabase, databaseCpuBefore: number): Promise<Load> {
  const started = performance.now();
  const versions = await waitForFirstLoad(service, headers, SOURCE_COUNT);
  const seconds = (performance.now() - started) / 1000;
  const databasePids = database.serverPids();
  return {
    seconds,
    peakRssMiB: sampleUsage([service.pid]).peakRssMiB,
    lists: versions.length,
    entities: versions.reduce((sum, v) => sum + v.entity_count, 0),
    ...(databasePids.length > 0 && { databaseCpuSeconds: sampleUsage(databasePids).cpuSeconds - databaseCpuBefore }),
  };
}
