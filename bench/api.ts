/**
 * npm run bench:api [-- --rate R] [--seconds S] [--warm-up S] [--connections N] [--only embedded|postgres]
 *                      [--reads PERCENT] [--database-url URL] [--data DIR] [--seed S] [--cpu-prof] [--no-write]
 *
 * How fast does POST /api/v1/prescreen answer through real HTTP, with every real list loaded, on
 * each database? For the embedded database (a fresh DATA_DIR) and then PostgreSQL (--database-url
 * or DATABASE_URL as given, else a throwaway cluster when the PostgreSQL 15 binaries are
 * installed, else skipped with the reason), it imports the lists with the CLI, creates an
 * organization and a key, starts the service as `npm start` does, waits until it is ready, sends
 * R requests a second (default 200) at fixed times for a warm-up (default 5 s) and then for S
 * seconds (default 20), and reports offered and achieved rate, p50/p95/p99/max, refusals by
 * status, errors, and the CPU and memory of the server (and of PostgreSQL). The subjects are real:
 * listed names, typos, transliterations and clean names (bench/api/prescreen-mix.ts).
 * Writes a section per database to BENCHMARKS.md. Every process it starts is stopped when it
 * ends, fails or is interrupted. `--cpu-prof` writes the service's CPU profile under
 * bench/results/profiles/ (read it with bench/load/profile-summary.ts). Exit code 2 when the list
 * data is missing or an argument is wrong.
 * `--reads P` makes P% of the measured requests GET /api/v1/screenings/{id} of screenings the
 * warm-up stored (tagged `GET screening`): what reading a record back costs, its audit included,
 * beside the prescreens. The default, 0, measures prescreens alone, as the figures before it did.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { type BenchDatabase, embeddedDatabase, postgresDatabase } from './api/databases.ts';
import { driveAtFixedRate, type PlannedRequest } from './api/paced-load.ts';
import { prepareService } from './api/prepared-service.ts';
import { buildPrescreenMix } from './api/prescreen-mix.ts';
import { sampleUsage, usageBetween } from './api/process-usage.ts';
import { type DatabaseRun, runTable } from './api/report.ts';
import { cpuProfileArgs } from './api/service-process.ts';
import { recordBenchmark } from './benchmarks-file.ts';
import { exitOnUsageProblem, positiveInteger, resolveDataDir, UsageError } from './matching/eval-data.ts';
import { running, stopEverything } from './running-processes.ts';

try {
  const { values } = parseArgs({
    options: {
      rate: { type: 'string', default: '200' },
      seconds: { type: 'string', default: '20' },
      'warm-up': { type: 'string', default: '5' },
      connections: { type: 'string' },
      only: { type: 'string' },
      'database-url': { type: 'string' },
      data: { type: 'string' },
      seed: { type: 'string', default: '20261122' },
      reads: { type: 'string', default: '0' },
      'cpu-prof': { type: 'boolean', default: false },
      write: { type: 'boolean', default: true },
    },
    allowNegative: true,
  });
  const rate = positiveInteger('--rate', values.rate);
  const seconds = positiveInteger('--seconds', values.seconds);
  const warmUpSeconds = positiveInteger('--warm-up', values['warm-up']);
  // One connection per 100 ms of arrivals: each is free again long before its next request is due.
  const connections = values.connections ? positiveInteger('--connections', values.connections) : Math.max(10, Math.ceil(rate / 10));
  if (values.only && !['embedded', 'postgres'].includes(values.only)) throw new UsageError('--only must be embedded or postgres');
  const readPercent = Number(values.reads);
  if (!Number.isInteger(readPercent) || readPercent < 0 || readPercent > 100) throw new UsageError('--reads must be a whole percentage, 0 to 100');
  const dataDir = resolveDataDir(values.data);

  // Enough distinct bodies that neither run repeats one: a quarter of the requests of each kind, plus a margin.
  const perCategory = Math.ceil((rate * (seconds + warmUpSeconds) * 1.1) / 4);
  const mix = await buildPrescreenMix(dataDir, perCategory, positiveInteger('--seed', values.seed));
  const requests: PlannedRequest[] = mix.map(({ category, body }) => ({ tag: category, method: 'POST', path: '/v1/prescreen', body }));
  process.stderr.write(
    `bench:api: ${requests.length.toLocaleString('en')} prescreen bodies; ${rate}/s for ${warmUpSeconds} s of warm-up and ${seconds} s measured\n`,
  );

  const databases: { name: string; open(): Promise<BenchDatabase | { skipped: string }> }[] = [
    { name: 'embedded', open: async () => embeddedDatabase() },
    // Bench scripts are not the service: reading DATABASE_URL here is the script's own option, as in bench:audit-export.
    { name: 'postgres', open: () => postgresDatabase(values['database-url'] ?? process.env.DATABASE_URL) },
  ];
  for (const { name, open } of databases.filter((d) => !values.only || d.name === values.only)) {
    const database = await open();
    if ('skipped' in database) {
      process.stderr.write(`bench:api: ${database.skipped}\n`);
      continue;
    }
    running.push(database.close);
    process.stderr.write(`bench:api: ${database.label}: importing the lists and starting the service\n`);
    const run = await measureOn(database, {
      dataDir,
      requests,
      readPercent,
      rate,
      seconds,
      warmUpSeconds,
      connections,
      nodeArgs: cpuProfileArgs(values['cpu-prof']),
    });
    await running.pop()?.();
    const table = runTable(run, seconds);
    console.log(`\n## ${database.label}\n\n${table.join('\n')}`);
    if (values.write)
      recordBenchmark(`POST /api/v1/prescreen over HTTP, ${name === 'embedded' ? 'embedded PGlite' : 'PostgreSQL'}`, 'npm run bench:api', table);
  }
} catch (error) {
  await stopEverything();
  exitOnUsageProblem('bench:api', error);
} finally {
  await stopEverything();
}

type RunSettings = {
  dataDir: string;
  requests: PlannedRequest[];
  readPercent: number;
  rate: number;
  seconds: number;
  warmUpSeconds: number;
  connections: number;
  nodeArgs: string[];
};

async function measureOn(database: BenchDatabase, settings: RunSettings): Promise<DatabaseRun> {
  const prepared = await prepareService(database, settings.dataDir, { nodeArgs: settings.nodeArgs });
  running.push(prepared.service.stop);
  const load = {
    baseUrl: prepared.service.baseUrl,
    headers: { authorization: `Bearer ${prepared.apiKey}`, 'content-type': 'application/json' },
    requests: settings.requests,
    rate: settings.rate,
    connections: settings.connections,
  };
  // JIT, connection pools and the database's caches warm up on requests that are not counted.
  const stored: string[] = [];
  const warmUp = await driveAtFixedRate({
    ...load,
    seconds: settings.warmUpSeconds,
    onAnswer: (_kind, status, body) => {
      const id = status === 201 ? /"id":"(scr_[0-9a-z]{26})"/.exec(body)?.[1] : undefined;
      if (id) stored.push(id);
    },
  });
  const measuredRequests = withReads(settings.requests, warmUp.nextRequest, stored, settings.readPercent);
  const potentialMatches = new Map<string, number>();
  const machineLoad = os.loadavg()[0] ?? 0;
  const generatorBefore = process.cpuUsage();
  const serverBefore = sampleUsage([prepared.service.pid]);
  const databaseBefore = sampleUsage(database.serverPids());
  const measured = await driveAtFixedRate({
    ...load,
    requests: measuredRequests,
    seconds: settings.seconds,
    firstRequest: settings.readPercent > 0 ? 0 : warmUp.nextRequest,
    onAnswer: (kind, status, body) => {
      if (status === 201 && body.includes('"outcome":"potential_match"')) potentialMatches.set(kind, (potentialMatches.get(kind) ?? 0) + 1);
    },
  });
  const server = usageBetween(serverBefore, sampleUsage([prepared.service.pid]));
  const generatorCpu = process.cpuUsage(generatorBefore);
  const generatorCpuPercent = Math.round((generatorCpu.user + generatorCpu.system) / 1e4 / settings.seconds);
  const databasePids = database.serverPids();
  const databaseServer = databasePids.length > 0 ? usageBetween(databaseBefore, sampleUsage(databasePids)) : undefined;
  await running.pop()?.();
  return {
    database: database.label,
    lists: prepared.lists,
    importSeconds: prepared.importSeconds,
    startSeconds: prepared.startSeconds,
    warmUpSeconds: settings.warmUpSeconds,
    connections: settings.connections,
    load: measured,
    server,
    ...(databaseServer && { databaseServer }),
    generatorCpuPercent,
    machineLoad,
    potentialMatches,
  };
}

/**
 * The requests after `first`, with `percent` of the positions, spread evenly, reading back one of
 * the stored screenings instead (in turn); unchanged when there is nothing to read.
 */
function withReads(requests: PlannedRequest[], first: number, stored: string[], percent: number): PlannedRequest[] {
  if (percent === 0 || stored.length === 0) return requests;
  const rest = [...requests.slice(first), ...requests.slice(0, first)];
  let reads = 0;
  return rest.map((request, i) =>
    Math.floor(((i + 1) * percent) / 100) > Math.floor((i * percent) / 100)
      ? { tag: 'GET screening', method: 'GET' as const, path: `/v1/screenings/${stored[reads++ % stored.length]}` }
      : request,
  );
}
