/**
 * npm run bench:lists-refresh [-- --rate R] [--seconds S] [--window S] [--refreshes N] [--only embedded|postgres]
 *                                [--database-url URL] [--data DIR] [--seed S] [--no-pin] [--cpu-prof] [--no-write]
 *
 * Does the service keep its lists current without getting in the way of screening? On each
 * database (a fresh DATA_DIR, then PostgreSQL as bench:api finds it), with a list publisher on
 * loopback serving every source from the real files (bench/lists-refresh/published-sets.ts):
 * 1. the service starts on an empty database and downloads the full set itself: wall time from
 *    listening to ready, and its peak RSS;
 * 2. POST /api/v1/prescreen at R requests a second (default 100) for a warm-up, then N rounds
 *    (default 3) of: S quiet seconds (default 20) while the service's checks find nothing new, and
 *    the same load for a window of W seconds (default 60), two seconds into which the publisher
 *    starts serving the other edition of the OFAC SDN (a year apart, 3,559 entries changed): the
 *    service downloads, parses, diffs, writes and swaps it in while answering. A refresh lasts
 *    from the first byte requested to the first answer screened against the new version (read
 *    from the answers' list_versions).
 * p99 of the requests due during the refreshes is set against the p99 of the quiet periods
 * (target ≤ 1.5 ×), pooled over the rounds, and per round. One refresh leaves a few hundred
 * requests inside it, whose p99 is their sixth or seventh slowest: runs of one commit measured
 * from 1.4 to 3.0 × on a shared host. Pooled over rounds, each with its quiet period just
 * before it, the comparison has as many requests on each side, and a host whose speed drifts
 * weighs on both alike.
 * The processes keep to their CPUs as in bench:load (bench/cpu-layout.ts: the service alone on CPU 1,
 * this process, which generates the load and plays the publisher, with PostgreSQL on CPU 0;
 * `--no-pin` lets the scheduler decide). Writes a section per database to BENCHMARKS.md. `--cpu-prof` writes the service's CPU profile under
 * bench/results/profiles/ (read it with bench/load/profile-summary.ts). Exit code 2 when the list data is missing or
 * an argument is wrong.
 */
import { parseArgs } from 'node:util';
import { type ListPublisher, startListPublisher } from '../test/helpers/list-publisher.ts';
import { type BenchDatabase, embeddedDatabase, postgresDatabase } from './api/databases.ts';
import { driveAtFixedRate, type PlannedRequest } from './api/paced-load.ts';
import { createBenchOrganization } from './api/prepared-service.ts';
import { buildPrescreenMix } from './api/prescreen-mix.ts';
import { resetPeakRss, sampleUsage } from './api/process-usage.ts';
import { cpuProfileArgs, gatehouse, type ServiceProcess, startService } from './api/service-process.ts';
import { recordBenchmark } from './benchmarks-file.ts';
import { cpuLayout, pinDatabase, pinGenerator } from './cpu-layout.ts';
import {
  FIRST_SDN_EDITION,
  otherSdnEdition,
  publishFirstSet,
  publishSdn,
  type SdnEdition,
  SOURCE_COUNT,
  sdnFetchedAt,
  sourcesEnv,
} from './lists-refresh/published-sets.ts';
import { type DatabaseFigures, type FirstLoad, figuresTable, type Round } from './lists-refresh/report.ts';
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
      refreshes: { type: 'string', default: '3' },
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
    refreshes: positiveInteger('--refreshes', values.refreshes),
    dataDir: resolveDataDir(values.data),
    nodeArgs: cpuProfileArgs(values['cpu-prof']),
    pin: values.pin,
  };
  if (values.only && !['embedded', 'postgres'].includes(values.only)) throw new UsageError('--only must be embedded or postgres');
  const total = settings.rate * (WARM_UP_SECONDS + settings.refreshes * (settings.quietSeconds + settings.windowSeconds));
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

type Settings = {
  rate: number;
  quietSeconds: number;
  windowSeconds: number;
  refreshes: number;
  dataDir: string;
  nodeArgs: string[];
  pin: boolean;
};
type Load = { baseUrl: string; headers: Record<string, string>; requests: PlannedRequest[]; rate: number; connections: number };

async function measureOn(database: BenchDatabase, kind: 'embedded' | 'postgres', requests: PlannedRequest[], settings: Settings): Promise<DatabaseFigures> {
  const cpus = cpuLayout(settings.pin, kind);
  pinGenerator(cpus);
  pinDatabase(cpus, database.serverPids());
  const publisher = await startListPublisher();
  running.push(publisher.close);
  publishFirstSet(publisher, settings.dataDir);
  gatehouse(['migrate'], database.env);
  const { apiKey } = createBenchOrganization(database.env, 'bench:lists-refresh');
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };

  process.stderr.write(`bench:lists-refresh: ${database.label}: the service downloads every list\n`);
  const env = { ...database.env, ...sourcesEnv(publisher.base), LISTS_AUTO_UPDATE: 'true', LISTS_REFRESH_INTERVAL: '3s' };
  const databaseCpuBefore = sampleUsage(database.serverPids()).cpuSeconds;
  const service = await startService(env, { nodeArgs: settings.nodeArgs, ...(cpus.server && { cpus: cpus.server }) });
  running.push(service.stop);
  const firstLoad = await measureFirstLoad(service, headers, database, databaseCpuBefore);

  const load: Load = { baseUrl: service.baseUrl, headers, requests, rate: settings.rate, connections: Math.max(10, Math.ceil(settings.rate / 10)) };
  process.stderr.write(`bench:lists-refresh: ${database.label}: ${settings.rate}/s, ${WARM_UP_SECONDS} s warm-up\n`);
  let nextRequest = (await driveAtFixedRate({ ...load, seconds: WARM_UP_SECONDS })).nextRequest;
  const rounds: Round[] = [];
  const outcomes = { refused: 0, errors: 0 };
  let served = FIRST_SDN_EDITION;
  for (let round = 1; round <= settings.refreshes; round++) {
    const edition = otherSdnEdition(served);
    process.stderr.write(
      `bench:lists-refresh: ${database.label}: refresh ${round} of ${settings.refreshes}: ${settings.quietSeconds} s quiet, then ${settings.windowSeconds} s while the ${edition} SDN is published\n`,
    );
    const measured = await quietThenRefresh(service, publisher, load, { ...settings, edition, firstRequest: nextRequest });
    rounds.push(measured.round);
    outcomes.refused += measured.refused;
    outcomes.errors += measured.errors;
    nextRequest = measured.nextRequest;
    served = edition;
  }
  return {
    database: database.label,
    pinning: cpus.described,
    rate: settings.rate,
    quietSeconds: settings.quietSeconds,
    windowSeconds: settings.windowSeconds,
    firstLoad,
    rounds,
    ...outcomes,
  };
}

/**
 * One round: `quietSeconds` of load while the checks find nothing new, then the same load for
 * `windowSeconds`, two seconds into which the publisher starts serving `edition`. Each refresh
 * has a quiet period of its own just before it, so that a machine whose speed drifts (a shared
 * host) weighs on both sides of the comparison alike.
 */
async function quietThenRefresh(
  service: ServiceProcess,
  publisher: ListPublisher,
  load: Load,
  options: Settings & { edition: SdnEdition; firstRequest: number },
): Promise<{ round: Round; refused: number; errors: number; nextRequest: number }> {
  const quiet = await driveAtFixedRate({ ...load, seconds: options.quietSeconds, firstRequest: options.firstRequest });
  const before = (await listsOf(service.baseUrl, load.headers)).find((v) => v.list === 'OFAC_SDN');
  if (!before) throw new Error('the service loaded no OFAC_SDN version from the publisher');

  const peakIsTheRefreshs = resetPeakRss(service.pid);
  const answers: { dueAt: number; latencyMs: number; ok: boolean }[] = [];
  let swappedAt: number | undefined;
  let switchedAt = Number.POSITIVE_INFINITY;
  const switchTimer = setTimeout(() => {
    switchedAt = performance.now();
    publishSdn(publisher, options.dataDir, options.edition);
  }, SWITCH_AFTER_MS);
  const window = await driveAtFixedRate({
    ...load,
    seconds: options.windowSeconds,
    firstRequest: quiet.nextRequest,
    onAnswer: (_tag, status, body) => {
      if (swappedAt === undefined && status === 201 && sdnVersionIn(body) !== before.version_id) swappedAt = performance.now();
    },
    onTimedAnswer: ({ status, dueAt, latencyMs }) => answers.push({ dueAt, latencyMs, ok: status < 300 }),
  });
  clearTimeout(switchTimer);
  const fetchedAt = sdnFetchedAt(publisher, switchedAt);
  const after = (await listsOf(service.baseUrl, load.headers)).find((v) => v.list === 'OFAC_SDN');
  const inRefresh = (dueAt: number) => fetchedAt !== undefined && dueAt >= fetchedAt && dueAt <= (swappedAt ?? Number.POSITIVE_INFINITY);
  const ok = answers.filter((a) => a.ok);
  const round: Round = {
    edition: options.edition,
    refresh: {
      seconds: fetchedAt !== undefined && swappedAt !== undefined ? (swappedAt - fetchedAt) / 1000 : undefined,
      peakRssMiB: sampleUsage([service.pid]).peakRssMiB,
      peakIsTheRefreshs,
      changes: after && after.version_id !== before.version_id ? after.changes : undefined,
      fromEntities: before.entity_count,
      toEntities: after?.entity_count,
    },
    quiet: [...quiet.latenciesMs.values()].flat(),
    duringRefresh: ok.filter((a) => inRefresh(a.dueAt)).map((a) => a.latencyMs),
    afterRefresh: ok.filter((a) => swappedAt !== undefined && a.dueAt > swappedAt).map((a) => a.latencyMs),
  };
  const notAnswered = (result: typeof quiet) => [...result.statusCounts].filter(([status]) => status >= 300).reduce((sum, [, n]) => sum + n, 0);
  return {
    round,
    refused: notAnswered(quiet) + notAnswered(window),
    errors: quiet.connectionErrors + quiet.timeouts + window.connectionErrors + window.timeouts,
    nextRequest: window.nextRequest,
  };
}

async function measureFirstLoad(
  service: ServiceProcess,
  headers: Record<string, string>,
  database: BenchDatabase,
  databaseCpuBefore: number,
): Promise<FirstLoad> {
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
