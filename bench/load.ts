/**
 * npm run bench:load [-- --only embedded|postgres] [--rates 50,100,…] [--seconds S] [--warm-up S]
 *                       [--organizations N] [--screenings N] [--sessions N] [--soak SECONDS] [--soak-rate R]
 *                       [--no-ceiling] [--no-pin] [--cpu-prof] [--service-env NAME=VALUE]… [--database-url URL] [--data DIR]
 *                       [--processes N] [--seed S] [--no-write]
 *
 * The whole service under a realistic mix over real HTTP, against what the machine can do at all.
 * For the embedded database (a fresh DATA_DIR) and PostgreSQL (--database-url or DATABASE_URL as
 * given, else a throwaway cluster, else skipped with the reason): imports the real lists with the
 * CLI, seeds 20 organizations and 200,000 stored screenings through the service's own screening
 * pipeline (bench/load/seed.ts), starts the service as `npm start` does, checks visitors in over
 * HTTP (the sessions the mix updates), then steps the mix (bench/load/mix.ts) through fixed
 * arrival rates until p99 doubles or errors appear (rates up to the database's target rate are
 * always measured), and, once per run, measures the ceiling: a bare node:http server and
 * GET /api/healthz with the same generator settings (bench/load/ceiling.ts). `--soak 600` then
 * holds half the highest rate held for 600 s and watches RSS, event-loop delay and connections.
 *
 * `--processes 3` sends the mix through Debian's HAProxy to three service processes on the same
 * database, round-robin (bench/load/services.ts); the three and HAProxy keep to the one process's
 * CPU, and the section's heading says how many processes served.
 *
 * On a machine with two or more CPUs the service (and the ceiling's servers) run on CPU 1, and
 * this process (the load generator) and PostgreSQL on CPU 0, so that the generator does not take
 * the server's core (bench/cpu-layout.ts; `--no-pin` lets the scheduler decide). `--cpu-prof` writes
 * the service's CPU profile to bench/results/profiles/ when it stops (bench/load/profile-summary.ts
 * sums it up). Figures go to BENCHMARKS.md (one section per database, one for the ceiling, one per
 * soak) and everything measured to bench/results/load-<time>.json (not committed). Exit code 2
 * when the list data is missing or an argument is wrong.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type BenchDatabase, embeddedDatabase, postgresDatabase } from './api/databases.ts';
import { importLists } from './api/prepared-service.ts';
import { buildPrescreenMix } from './api/prescreen-mix.ts';
import { processAndChildren, sampleUsage } from './api/process-usage.ts';
import { cpuProfileArgs } from './api/service-process.ts';
import { recordBenchmark } from './benchmarks-file.ts';
import { cpuLayout, pinDatabase, pinGenerator } from './cpu-layout.ts';
import { type Ceiling, measureCeiling } from './load/ceiling.ts';
import { planMix, visitorBody } from './load/mix.ts';
import { ceilingSection, type DatabaseLoadRun, databaseSection, soakSection, TARGETS } from './load/report.ts';
import { seedHistory } from './load/seed.ts';
import { startServices } from './load/services.ts';
import { soak } from './load/soak.ts';
import { capacity, stepUp } from './load/steps.ts';
import { checkInVisitors } from './load/visitor-sessions.ts';
import { exitOnUsageProblem, positiveInteger, resolveDataDir, UsageError } from './matching/eval-data.ts';

const NUMBER_WORDS: Record<number, string> = { 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven', 8: 'eight', 9: 'nine' };
const DEFAULT_RATES = [50, 100, 150, 200, 300, 400, 500, 650, 800, 1000, 1250, 1600, 2000, 2500, 3200];
const RESULTS_DIR = 'bench/results';
/** Planned requests per run: cycled when a run sends more (a repeat of a prescreen is still a new screening). */
const PLANNED = 200_000;

const running: (() => unknown)[] = [];
async function stopEverything() {
  while (running.length > 0) await running.pop()?.();
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void stopEverything().finally(() => process.exit(130)));
}
const log = (line: string) => process.stderr.write(`bench:load: ${line}\n`);

try {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      rates: { type: 'string' },
      seconds: { type: 'string', default: '15' },
      'warm-up': { type: 'string', default: '3' },
      organizations: { type: 'string', default: '20' },
      screenings: { type: 'string', default: '200000' },
      sessions: { type: 'string', default: '100' },
      soak: { type: 'string' },
      'soak-rate': { type: 'string' },
      ceiling: { type: 'boolean', default: true },
      pin: { type: 'boolean', default: true },
      'cpu-prof': { type: 'boolean', default: false },
      'service-env': { type: 'string', multiple: true, default: [] },
      'database-url': { type: 'string' },
      data: { type: 'string' },
      processes: { type: 'string', default: '1' },
      seed: { type: 'string', default: '20261123' },
      write: { type: 'boolean', default: true },
    },
    allowNegative: true,
  });
  if (values.only && !['embedded', 'postgres'].includes(values.only)) throw new UsageError('--only must be embedded or postgres');
  const rates = values.rates ? values.rates.split(',').map((r) => positiveInteger('--rates', r)) : DEFAULT_RATES;
  const settings = { seconds: positiveInteger('--seconds', values.seconds), warmUpSeconds: Number(values['warm-up']) };
  const organizations = positiveInteger('--organizations', values.organizations);
  const screenings = positiveInteger('--screenings', values.screenings);
  const sessionsPerOrganization = positiveInteger('--sessions', values.sessions);
  const soakSeconds = values.soak ? positiveInteger('--soak', values.soak) : undefined;
  const seed = positiveInteger('--seed', values.seed);
  const processes = positiveInteger('--processes', values.processes);
  // A setting of the service to compare runs with and without (e.g. DATABASE_PREPARE_STATEMENTS=false).
  const serviceEnv = Object.fromEntries(
    values['service-env'].map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new UsageError('--service-env takes NAME=VALUE');
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
  const dataDir = resolveDataDir(values.data);

  const layout = (name: 'embedded' | 'postgres', database?: BenchDatabase) =>
    cpuLayout(values.pin, name, { processes, foreignDatabase: database !== undefined && database.serverPids().length === 0 });
  // The heading names the servers when they are not the default one process, so that each kind of run keeps its own section.
  const served = processes > 1 ? `, ${NUMBER_WORDS[processes] ?? processes} processes behind HAProxy` : '';
  const command = ['npm run bench:load', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' ');

  log('building the subjects (real list names, typos, transliterations, clean names)');
  const subjects = await buildPrescreenMix(dataDir, 15_000, seed);
  const clean = subjects.filter((s) => s.category === 'clean').map((s) => s.body);
  const listed = subjects.filter((s) => s.category !== 'clean').map((s) => s.body);
  const prescreens = subjects.map((s) => s.body);

  const databases: { name: 'embedded' | 'postgres'; open(): Promise<BenchDatabase | { skipped: string }> }[] = [
    { name: 'embedded', open: async () => embeddedDatabase() },
    // Bench scripts are not the service: reading DATABASE_URL here is the script's own option, as in bench:api.
    { name: 'postgres', open: () => postgresDatabase(values['database-url'] ?? process.env.DATABASE_URL) },
  ];
  let ceiling: Ceiling | undefined;
  const runs: DatabaseLoadRun[] = [];
  const chosen = databases.filter((d) => !values.only || d.name === values.only);
  for (const [n, { name, open }] of chosen.entries()) {
    const database = await open();
    if ('skipped' in database) {
      log(database.skipped);
      continue;
    }
    running.push(database.close);
    const cpus = layout(name, database);
    pinGenerator(cpus);
    log(`${database.label}: importing the lists`);
    const imported = importLists(database, dataDir);
    log(`${database.label}: seeding ${organizations} organizations and ${screenings.toLocaleString('en')} screenings`);
    let lastReport = 0;
    const seeded = await seedHistory({
      env: database.env,
      organizations,
      screenings,
      subjects: { clean, listed },
      listedShare: 0.1,
      keepIds: 2_000,
      days: 90,
      seed,
      progress: (done) => {
        if (done - lastReport >= 20_000) log(`seeded ${((lastReport = done)).toLocaleString('en')} screenings`);
      },
    });
    log(`seeded in ${seeded.seconds.toFixed(0)} s (${seeded.potentialMatches.toLocaleString('en')} potential matches)`);

    const nodeArgs = cpuProfileArgs(values['cpu-prof']);
    const service = await startServices({ ...database, env: { ...database.env, ...serviceEnv } }, processes, {
      nodeArgs,
      ...(cpus.server && { cpus: cpus.server }),
    });
    running.push(service.stop);
    const started = performance.now();
    const visitors = clean.map(visitorBody).filter((b): b is string => b !== undefined);
    const mixOrganizations = [];
    for (const [n, org] of seeded.organizations.entries()) {
      const bodies = visitors.slice(n * sessionsPerOrganization, (n + 1) * sessionsPerOrganization);
      mixOrganizations.push({ ...org, sessions: await checkInVisitors(service.baseUrl, org.apiKey, bodies) });
    }
    const sessionSeconds = (performance.now() - started) / 1000;
    log(`${(organizations * sessionsPerOrganization).toLocaleString('en')} visitors checked in over HTTP in ${sessionSeconds.toFixed(0)} s`);

    const databasePids = database.serverPids().length > 0 ? () => database.serverPids() : undefined;
    // Once, on the last database's service.
    if (values.ceiling && n === chosen.length - 1)
      ceiling = await measureCeiling({ baseUrl: service.baseUrl, pids: service.pids }, { ...(cpus.server && { cpus: cpus.server }), settings, log });

    const target = {
      baseUrl: service.baseUrl,
      headers: { 'content-type': 'application/json' },
      requests: planMix(mixOrganizations, prescreens, PLANNED, seed),
      serverPids: service.pids,
      ...(databasePids && { databasePids }),
    };
    if (databasePids) pinDatabase(cpus, databasePids());
    log(`${database.label}: stepping the mix`);
    const through = name === 'postgres' ? TARGETS.postgres.rate : TARGETS.embedded.rate;
    const steps = await stepUp(target, rates, settings, log, through);
    const run: DatabaseLoadRun = {
      database: name,
      label: processes > 1 ? `${database.label}, ${processes} service processes behind HAProxy (round-robin, TRUST_PROXY=127.0.0.1)` : database.label,
      lists: imported.lists,
      seeded: {
        organizations,
        screenings: seeded.screenings,
        potentialMatches: seeded.potentialMatches,
        seconds: seeded.seconds,
        sessions: organizations * sessionsPerOrganization,
        sessionSeconds,
      },
      pinning: cpus.described,
      settings,
      steps,
    };
    if (soakSeconds) {
      const held = capacity(steps, name === 'postgres' ? TARGETS.postgres.capacityP95Ms : TARGETS.embedded.p95Ms);
      const soakRate = values['soak-rate']
        ? positiveInteger('--soak-rate', values['soak-rate'])
        : Math.max(1, Math.floor((held?.offeredRate ?? rates[0] ?? 50) / 2));
      log(`${database.label}: soak at ${soakRate}/s for ${soakSeconds} s`);
      run.soak = await soak(target, {
        rate: soakRate,
        seconds: soakSeconds,
        warmUpSeconds: Math.min(60, Math.floor(soakSeconds / 5)),
        databaseUrl: database.env.DATABASE_URL,
        loadAverage: os.loadavg()[0] ?? 0,
        log,
      });
    }
    runs.push(run);
    log(
      `server RSS at the end: ${sampleUsage(service.pids).rssMiB} MiB; PostgreSQL processes: ${databasePids ? processAndChildren(database.serverPids()[0] ?? 0).length : 'none'}`,
    );
    await running.pop()?.(); // the service
    await running.pop()?.(); // the database

    const title = `${database.engine}${served}`;
    const section = databaseSection(run, ceiling);
    console.log(`\n## ${title}\n\n${section.join('\n')}`);
    if (values.write) {
      recordBenchmark(`Load: the mix over HTTP, ${title}`, command, section);
      if (run.soak) recordBenchmark(`Load: soak, ${title}`, command, soakSection(run));
    }
  }
  if (ceiling) {
    const section = ceilingSection(ceiling, runs.at(-1)?.pinning ?? layout('postgres').described);
    console.log(`\n## Ceiling\n\n${section.join('\n')}`);
    if (values.write) recordBenchmark(`Load: the ceiling of this machine${served}`, command, section);
  }
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `load-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  const machine = { cpus: os.cpus().length, model: os.cpus()[0]?.model.trim(), memoryGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version };
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  fs.writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), commit, machine, settings, runs, ceiling }, null, 2)}\n`);
  log(`wrote ${file}`);
} catch (error) {
  await stopEverything();
  exitOnUsageProblem('bench:load', error);
} finally {
  await stopEverything();
}
