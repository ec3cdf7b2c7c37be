/**
 * npm run bench:ownership-reevaluation [-- --graphs N] [--entities N] [--changed-percent P] [--flipped N]
 *                                        [--concurrency N] [--only embedded|postgres] [--database-url URL]
 *                                        [--data DIR] [--seed S] [--no-write]
 *
 * Stored ownership determinations re-evaluated after an SDN change, through the real service on
 * each database: every real list imported with the CLI (the SDN without `--flipped` of its
 * companies), then N determinations stored with POST /ownership/check (default 10,000 graphs of
 * `--entities` 50, bench/ownership/stored-graphs.ts: every party screened by name; `--flipped`
 * of them, default 100, owned 60 % by one of the companies left out). Then the update, imported
 * with the CLI while the service is stopped (the embedded database serves one process): P % of
 * the SDN's entries changed (default 1 %: remarks edited, names kept) and the left-out companies
 * listed; the service started again, and the monitoring run that re-evaluates the determinations
 * the update touched timed from its own started_at to finished_at.
 * Targets (issue 29): the re-evaluation under 30 s and the service's peak RSS under 1 GiB. Writes
 * a section per database to BENCHMARKS.md.
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseOfacLegacy } from '../src/screening/lists/ofac-legacy.ts';
import { type BenchDatabase, openDatabases } from './api/databases.ts';
import { createBenchOrganization, LIST_FOLDERS, startReadyService } from './api/prepared-service.ts';
import { resetPeakRss } from './api/process-usage.ts';
import { formatCounts, rssMiB, runSeconds, sdnFolder, sdnRows, waitForSdnRun, withEditedRemarks } from './api/sdn-update.ts';
import { gatehouse } from './api/service-process.ts';
import { recordBenchmark } from './benchmarks-file.ts';
import { exitOnUsageProblem, positiveInteger, readDataFile, resolveDataDir, UsageError } from './matching/eval-data.ts';
import { namePools } from './ownership/name-pools.ts';
import { type NamePools, storedGraph } from './ownership/stored-graphs.ts';
import { running, stopEverything } from './running-processes.ts';

const AS_OF = '2026-11-22';
const SDN = 'ofac_sdn_2024-05';
/** One graph in this many has a person named as a real SDN entry. */
const LISTED_EVERY = 50;

type Settings = { graphs: number; entities: number; flipped: number; concurrency: number; seed: number; dataDir: string };
type Update = { base: string; update: string; listedOwners: string[]; changed: number; pools: NamePools };

const say = (text: string) => process.stderr.write(`bench:ownership-reevaluation: ${text}\n`);

try {
  const { values } = parseArgs({
    options: {
      graphs: { type: 'string', default: '10000' },
      entities: { type: 'string', default: '50' },
      'changed-percent': { type: 'string', default: '1' },
      flipped: { type: 'string', default: '100' },
      concurrency: { type: 'string', default: '2' },
      only: { type: 'string' },
      'database-url': { type: 'string' },
      data: { type: 'string' },
      seed: { type: 'string', default: '20261124' },
      write: { type: 'boolean', default: true },
    },
    allowNegative: true,
  });
  const settings: Settings = {
    graphs: positiveInteger('--graphs', values.graphs),
    entities: positiveInteger('--entities', values.entities),
    flipped: positiveInteger('--flipped', values.flipped),
    concurrency: positiveInteger('--concurrency', values.concurrency),
    seed: positiveInteger('--seed', values.seed),
    dataDir: resolveDataDir(values.data),
  };
  const changedPercent = Number(values['changed-percent']);
  if (!(changedPercent > 0 && changedPercent <= 50)) throw new UsageError('--changed-percent must be above 0 and at most 50');
  if (settings.entities < 3 || settings.flipped > settings.graphs) throw new UsageError('--entities must be 3 or more, and --flipped at most --graphs');
  if (values.only && !['embedded', 'postgres'].includes(values.only)) throw new UsageError('--only must be embedded or postgres');
  const update = sdnUpdate(settings, changedPercent);

  for await (const { name, database } of openDatabases(values.only, values['database-url'] ?? process.env.DATABASE_URL, say)) {
    running.push(database.close);
    const table = await measureOn(database, settings, update);
    await running.pop()?.();
    console.log(`\n## ${database.label}\n\n${table.join('\n')}`);
    if (values.write)
      recordBenchmark(
        `Ownership re-evaluation after an SDN change, ${name === 'embedded' ? 'embedded PGlite' : 'PostgreSQL'}`,
        'npm run bench:ownership-reevaluation',
        table,
      );
  }
} catch (error) {
  await stopEverything();
  exitOnUsageProblem('bench:ownership-reevaluation', error);
} finally {
  await stopEverything();
}

/** The SDN without `flipped` of its companies (what the graphs are stored against), and the update that edits P % and lists them. */
function sdnUpdate(settings: Settings, percent: number): Update {
  const rows = sdnRows(readDataFile(settings.dataDir, `${SDN}/sdn.csv`, 'latin1'));
  const entities = parseOfacLegacy('OFAC_SDN', { main: `${rows.join('\r\n')}\r\n` }).entities;
  const companies = entities.filter((e) => e.type === 'organization');
  const step = Math.floor(companies.length / settings.flipped);
  const leftOut = companies.filter((_, i) => i % step === 0).slice(0, settings.flipped);
  const leftOutIds = new Set(leftOut.map((e) => e.entryId));
  const edited = withEditedRemarks(rows, percent);
  const cleanUp = (remove: () => void) => running.push(remove);
  return {
    base: sdnFolder(
      rows.filter((row) => !leftOutIds.has(row.slice(0, row.indexOf(',')))),
      cleanUp,
    ),
    update: sdnFolder(edited.rows, cleanUp),
    listedOwners: leftOut.map((e) => e.names[0]?.full as string),
    changed: edited.changed,
    pools: namePools(
      settings.dataDir,
      entities.filter((e) => !leftOutIds.has(e.entryId)),
    ),
  };
}

async function measureOn(database: BenchDatabase, settings: Settings, update: Update): Promise<string[]> {
  say(`${database.label}: importing the lists (the SDN without ${settings.flipped} companies)`);
  gatehouse(['migrate'], database.env);
  const folders = LIST_FOLDERS.map((folder) => (folder === SDN ? update.base : path.join(settings.dataDir, folder)));
  gatehouse(['lists', 'import', ...folders], database.env);
  const { apiKey } = createBenchOrganization(database.env, 'bench:ownership-reevaluation');
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };

  let { service } = await startReadyService(database);
  running.push(() => service.stop());
  say(`storing ${settings.graphs.toLocaleString('en')} determinations of ${settings.entities} entities, ${settings.concurrency} at a time`);
  const stored = await storeGraphs(service.baseUrl, headers, settings, update);
  await service.stop();
  running.pop();

  say('importing the update and starting the service again');
  const imported = gatehouse<{ status: string; version?: { changes: Record<string, number> } }[]>(['lists', 'import', update.update], database.env);
  const load = os.loadavg()[0] ?? 0;
  ({ service } = await startReadyService({ ...database, env: { ...database.env, MONITORING_INTERVAL_SECONDS: '1' } }));
  running.push(() => service.stop());
  const rssAtReady = rssMiB(service.pid, 'VmRSS');
  // Loading and indexing every list at start has a peak of its own; the run's is read from here on, where Linux allows.
  const startPeak = rssMiB(service.pid, 'VmHWM');
  const reset = resetPeakRss(service.pid);
  const run = await waitForSdnRun(service.baseUrl, headers);
  const peakRss = rssMiB(service.pid, 'VmHWM');
  await service.stop();
  running.pop();

  const seconds = runSeconds(run);
  const met = (ok: boolean) => (ok ? 'met' : '**missed**');
  return [
    `${database.label}. ${settings.graphs.toLocaleString('en')} stored determinations of ${settings.entities} entities (bench/ownership/stored-graphs.ts, seed ${settings.seed}), every party screened by name; ${settings.flipped} of them owned 60 % by a company the update lists (${stored.blockedBefore} of those blocked already, through another entry their owner's name matches). Load average ${load.toFixed(2)} as the run began.`,
    '',
    '| step | wall time | target | counts |',
    '|---|---|---|---|',
    `| storing the determinations (POST /ownership/check, store) | ${stored.seconds.toFixed(0)} s, ${(settings.graphs / stored.seconds).toFixed(1)} a second | — | ${formatCounts(stored.statuses)} |`,
    `| the monitoring run after the update (${run.changed_entries} SDN entries added or changed: ${update.changed} edited, ${settings.flipped} listed) | ${seconds.toFixed(1)} s | < 30 s, ${met(seconds < 30)} | ${formatCounts(run.counts)} |`,
    '',
    `Service peak RSS ${reset ? 'during the run (from readiness on)' : 'since it started (its peak could not be reset at readiness)'}: ${peakRss} MiB (target < 1,024 MiB: ${met(peakRss < 1024)}); ${rssAtReady} MiB once started and ready, and a peak of ${startPeak} MiB while it loaded and indexed every list (on the embedded database, PostgreSQL itself in WebAssembly is in the same process). The run begins as the service is ready, so the two peaks may overlap a little. The update: ${JSON.stringify(imported.map((i) => i.status))}.`,
  ];
}

/** Stores the graphs, `concurrency` requests at a time; answers the time and the statuses decided. */
async function storeGraphs(baseUrl: string, headers: Record<string, string>, settings: Settings, update: Update) {
  const statuses: Record<string, number> = {};
  let blockedBefore = 0;
  let next = 0;
  // The graphs owned by a company the update lists, spread evenly.
  const every = Math.floor(settings.graphs / settings.flipped);
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < settings.graphs; i = next++) {
      const listedOwner = i % every === 0 ? update.listedOwners[i / every] : undefined;
      const body = storedGraph(i, settings.entities, update.pools, {
        seed: settings.seed,
        asOf: AS_OF,
        listedEvery: LISTED_EVERY,
        ...(listedOwner && { listedOwner }),
      });
      const response = await fetch(`${baseUrl}/v1/ownership/check`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (response.status !== 200) throw new Error(`graph ${i} answered ${response.status}: ${(await response.text()).slice(0, 2000)}`);
      const answer = (await response.json()) as { ofac: { blocked: boolean }; bis: { restricted: boolean } };
      const status = answer.ofac.blocked ? 'blocked' : answer.bis.restricted ? 'restricted' : 'not_blocked_or_restricted';
      statuses[status] = (statuses[status] ?? 0) + 1;
      // A company left out of the SDN may still match another entry (JINSONG JOINT BANK, JINMYONG JOINT BANK): blocked already.
      if (listedOwner && answer.ofac.blocked) blockedBefore += 1;
      if ((i + 1) % 1000 === 0) say(`${(i + 1).toLocaleString('en')} stored, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  };
  await Promise.all(Array.from({ length: settings.concurrency }, worker));
  return { seconds: (performance.now() - started) / 1000, statuses, blockedBefore };
}
