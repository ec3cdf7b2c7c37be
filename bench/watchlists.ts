/**
 * npm run bench:watchlists [-- --only embedded|postgres] [--organizations N] [--entries N] [--large N]
 *                             [--rate R] [--seconds S] [--warm-up S] [--trials N] [--no-pin]
 *                             [--database-url URL] [--data DIR] [--seed S] [--cpu-prof] [--no-write]
 *
 * What organization watchlists cost the service, over real HTTP. On each database (as bench:api
 * opens them): the real lists imported with the CLI, 1,000 organizations (and one more) made with
 * an admin key each (creating a watchlist is an administrator's), and `gatehouse serve` started.
 * Then prescreens at R/s (default 150) for S seconds (default 20), spread over the organizations,
 * one in ten for the large one; then one watchlist per organization loaded through the API
 * (`--entries` each, default 100; `--large` for the large one, default 100,000); each
 * organization's first prescreen after it; the monitoring runs the loading queued, waited for;
 * the very same prescreens again; and `--trials` times (default 20, a quarter of them on the
 * large watchlist) an entry added with `POST …/entries` and prescreened until it matches.
 * Targets (issue 27): p99 with watchlists within 20% of without, and an added entry matched
 * within 1 s. The service's memory with the public lists alone and with every watchlist in use.
 * Writes a section per database to BENCHMARKS.md. `--cpu-prof` writes the service's CPU profile
 * under bench/results/profiles/ (read it with bench/load/profile-summary.ts). Exit code 2 when
 * the list data is missing or an argument is wrong.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { openReadyDatabase } from '../src/db/database.ts';
import { createOrganizations } from './api/bench-organizations.ts';
import { type BenchDatabase, embeddedDatabase, postgresDatabase } from './api/databases.ts';
import { driveAtFixedRate, type LoadResult, type PlannedRequest } from './api/paced-load.ts';
import { importLists, startReadyService } from './api/prepared-service.ts';
import { buildPrescreenMix } from './api/prescreen-mix.ts';
import { resetPeakRss, sampleUsage } from './api/process-usage.ts';
import { cpuProfileArgs } from './api/service-process.ts';
import { recordBenchmark } from './benchmarks-file.ts';
import { cpuLayout, pinDatabase, pinGenerator } from './cpu-layout.ts';
import { exitOnUsageProblem, positiveInteger, resolveDataDir, UsageError } from './matching/eval-data.ts';
import { running, stopEverything } from './running-processes.ts';
import { watchlistEntries } from './watchlists/entries.ts';
import { apiAt, entryToMatch, firstPrescreens, loadWatchlists, monitoringSettled } from './watchlists/phases.ts';
import { type WatchlistRun, watchlistTable } from './watchlists/report.ts';

type Settings = {
  dataDir: string;
  organizations: number;
  entries: number;
  large: number;
  rate: number;
  seconds: number;
  warmUp: number;
  trials: number;
  pin: boolean;
  seed: number;
  cpuProfile: boolean;
};

const say = (text: string) => process.stderr.write(`bench:watchlists: ${text}\n`);

try {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      organizations: { type: 'string', default: '1000' },
      entries: { type: 'string', default: '100' },
      large: { type: 'string', default: '100000' },
      rate: { type: 'string', default: '150' },
      seconds: { type: 'string', default: '20' },
      'warm-up': { type: 'string', default: '5' },
      trials: { type: 'string', default: '20' },
      pin: { type: 'boolean', default: true },
      'database-url': { type: 'string' },
      data: { type: 'string' },
      seed: { type: 'string', default: '20261124' },
      'cpu-prof': { type: 'boolean', default: false },
      write: { type: 'boolean', default: true },
    },
    allowNegative: true,
  });
  if (values.only && !['embedded', 'postgres'].includes(values.only)) throw new UsageError('--only must be embedded or postgres');
  const settings: Settings = {
    dataDir: resolveDataDir(values.data),
    organizations: positiveInteger('--organizations', values.organizations),
    entries: positiveInteger('--entries', values.entries),
    large: positiveInteger('--large', values.large),
    rate: positiveInteger('--rate', values.rate),
    seconds: positiveInteger('--seconds', values.seconds),
    warmUp: positiveInteger('--warm-up', values['warm-up']),
    trials: positiveInteger('--trials', values.trials),
    pin: values.pin,
    seed: positiveInteger('--seed', values.seed),
    cpuProfile: values['cpu-prof'],
  };
  const databases: { name: 'embedded' | 'postgres'; open(): Promise<BenchDatabase | { skipped: string }> }[] = [
    { name: 'embedded', open: async () => embeddedDatabase() },
    // Bench scripts are not the service: reading DATABASE_URL here is the script's own option, as in bench:api.
    { name: 'postgres', open: () => postgresDatabase(values['database-url'] ?? process.env.DATABASE_URL) },
  ];
  for (const { name, open } of databases.filter((d) => !values.only || d.name === values.only)) {
    const database = await open();
    if ('skipped' in database) {
      process.stderr.write(`bench:watchlists: ${database.skipped}\n`);
      continue;
    }
    running.push(database.close);
    const run = await measureOn(database, name, settings);
    await running.pop()?.();
    const table = watchlistTable(run);
    console.log(`\n## ${database.label}\n\n${table.join('\n')}`);
    if (values.write) recordBenchmark(`Watchlists, ${name === 'embedded' ? 'embedded PGlite' : 'PostgreSQL'}`, 'npm run bench:watchlists', table);
  }
} catch (error) {
  await stopEverything();
  exitOnUsageProblem('bench:watchlists', error);
} finally {
  await stopEverything();
}

async function measureOn(database: BenchDatabase, name: 'embedded' | 'postgres', settings: Settings): Promise<WatchlistRun> {
  say(`${database.label}: importing the lists, making ${settings.organizations + 1} organizations`);
  importLists(database, settings.dataDir);
  const db = await openReadyDatabase(loadConfig({ ...database.env, SANDBOX_BOOTSTRAP: 'false', LISTS_AUTO_UPDATE: 'false', LOG_LEVEL: 'warn' }), true);
  const organizations = await createOrganizations(db, settings.organizations + 1, 'Watchlist benchmark', 'bench-watchlists', true).finally(() => db.close());
  const large = organizations.at(-1) as (typeof organizations)[number];
  const small = organizations.slice(0, -1);

  // The same requests before and after: one in ten for the large organization, the rest in turn.
  const perCategory = Math.ceil((settings.rate * (settings.seconds + settings.warmUp) * 1.1) / 4);
  const mix = await buildPrescreenMix(settings.dataDir, perCategory, settings.seed);
  const requests: PlannedRequest[] = mix.map(({ body }, i) => {
    const organization = i % 10 === 9 ? large : (small[i % small.length] as (typeof small)[number]);
    return {
      tag: organization === large ? `the large one` : 'small ones',
      method: 'POST',
      path: '/v1/prescreen',
      body,
      headers: { authorization: `Bearer ${organization.apiKey}` },
    };
  });
  const sent = new Set(mix.map(({ body }) => (JSON.parse(body) as { subject: string }).subject));
  const entries = watchlistEntries(settings.dataDir, Math.max(settings.large, settings.entries * small.length) + settings.trials, sent, settings.seed);
  const trialEntries = entries.splice(-settings.trials).map((entry, i) => ({ ...entry, external_id: `bench-trial-${i}` }));

  const layout = cpuLayout(settings.pin, name);
  pinGenerator(layout);
  const { service } = await startReadyService(database, { nodeArgs: cpuProfileArgs(settings.cpuProfile), ...(layout.server && { cpus: layout.server }) });
  running.push(service.stop);
  pinDatabase(layout, database.serverPids());
  const load = {
    baseUrl: service.baseUrl,
    headers: { 'content-type': 'application/json' },
    requests,
    rate: settings.rate,
    connections: Math.max(10, Math.ceil(settings.rate / 10)),
  };
  const measure = async (label: string): Promise<LoadResult> => {
    say(`prescreens ${label}: ${settings.warmUp} s of warm-up, then ${settings.seconds} s at ${settings.rate}/s`);
    const warmUp = await driveAtFixedRate({ ...load, seconds: settings.warmUp });
    return driveAtFixedRate({ ...load, seconds: settings.seconds, firstRequest: warmUp.nextRequest });
  };

  const without = await measure('without watchlists');
  const listsOnly = sampleUsage([service.pid]).rssMiB;
  resetPeakRss(service.pid);
  const api = apiAt(service.baseUrl);
  say(`loading ${small.length} watchlists of ${settings.entries} and one of ${settings.large.toLocaleString('en')}`);
  const started = performance.now();
  const plan = [
    { organization: large, entries: entries.slice(0, settings.large) },
    ...small.map((organization, n) => ({ organization, entries: wrapped(entries, n * settings.entries, settings.entries) })),
  ];
  const loaded = await loadWatchlists(api, plan);
  const loadSeconds = (performance.now() - started) / 1000;
  const firstSmall = await firstPrescreens(
    api,
    loaded.filter((w) => w.organization !== large),
  );
  const firstLarge = await firstPrescreens(
    api,
    loaded.filter((w) => w.organization === large),
  );
  say('waiting for the monitoring runs the loading queued');
  const monitoringSeconds = await monitoringSettled(api, organizations);
  const withWatchlists = await measure('with watchlists');
  const inUse = sampleUsage([service.pid]);

  say(`${settings.trials} trials of an entry added, then matched`);
  const entryToMatchMs = { small: [] as number[], large: [] as number[] };
  for (const [i, entry] of trialEntries.entries()) {
    const onLarge = i % 4 === 3;
    const watchlist = onLarge ? loaded.find((w) => w.organization === large) : loaded.filter((w) => w.organization !== large)[(i * 37) % small.length];
    if (!watchlist) throw new Error('no watchlist to add to');
    (onLarge ? entryToMatchMs.large : entryToMatchMs.small).push(await entryToMatch(api, watchlist, entry));
  }
  await running.pop()?.();
  return {
    database: database.label,
    organizations: small.length,
    entriesEach: settings.entries,
    largeEntries: settings.large,
    rate: settings.rate,
    seconds: settings.seconds,
    without,
    with: withWatchlists,
    loadSeconds,
    monitoringSeconds,
    firstPrescreen: { small: firstSmall.ms, large: firstLarge.ms, missed: firstSmall.missed + firstLarge.missed },
    entryToMatch: { small: entryToMatchMs.small.sort((a, b) => a - b), large: entryToMatchMs.large.sort((a, b) => a - b) },
    rssMiB: { listsOnly, withWatchlists: inUse.rssMiB, peak: inUse.peakRssMiB },
    cpuLayout: layout.described,
  };
}

/** `count` items from `start`, going round to the beginning: the small watchlists share the pool. */
function wrapped<T>(items: readonly T[], start: number, count: number): T[] {
  return Array.from({ length: count }, (_, i) => items[(start + i) % items.length] as T);
}
