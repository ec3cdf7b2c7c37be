/**
 * npm run bench:index-swap [-- --rate R] [--seconds S] [--rounds N] [--work-ms W] [--data DIR] [--no-pin] [--no-write]
 *
 * The part of a list refresh that slows screenings, without HTTP, the database or a second
 * process: bench:lists-refresh found its slow answers while the new snapshot's index thread builds
 * (BENCHMARKS.md), and its runs of one commit spread from 1.2 to 5.9 ×, too widely to tell a
 * change to the index threads from the host. Here, on one CPU as the service is pinned there:
 * the real SDN (2024-05) indexed on an index thread (src/lists/index-thread.ts), screened at R a
 * second (default 100), each request marked in flight (background-priority.ts) around W ms of
 * the serving thread's own work (default 2, standing for parsing, authentication, the database
 * and the answer) and a screening of one of the list's own names. N rounds (default 3) of S quiet
 * seconds (default 15), then the next snapshot's index built over the same entities, on the thread
 * kept for it (src/lists/spare-index-threads.ts), while the load goes on, and swapped in once
 * built. p99 during the builds against p99 of the quiet periods, pooled over the rounds (the
 * refresh target, ≤ 1.5 ×), and per round. Writes its section to BENCHMARKS.md.
 * Exit code 2 when the list data is missing or an argument is wrong.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { requestEnded, requestStarted } from '../src/background-priority.ts';
import { type IndexThread, prepareNextIndexThread, startIndexThread } from '../src/lists/index-thread.ts';
import { packTexts } from '../src/lists/packed-texts.ts';
import { parseOfacLegacy } from '../src/screening/lists/ofac-legacy.ts';
import type { SubjectQuery } from '../src/screening/match-types.ts';
import { lowerV8HelperThreads } from '../src/thread-priority.ts';
import { recordBenchmark } from './benchmarks-file.ts';
import { ms, p99, p99Ratio, TARGET_P99_RATIO } from './lists-refresh/report.ts';
import { exitOnUsageProblem, positiveInteger, readDataFile, resolveDataDir, UsageError } from './matching/eval-data.ts';

/** Screen every how-many-th entity's first name: a few hundred queries, spread over the list. */
const QUERY_STRIDE = 37;

/**
 * The service's retired thread lingers a minute, and is then kept for the next build: its
 * refreshes are an hour apart. This benchmark's are seconds apart, so its linger is too.
 */
const RETIRED_LINGER_MS = 2_000;

type Load = { rate: number; workMs: number; queries: SubjectQuery[] };
type Round = { quiet: number[]; duringBuild: number[]; buildSeconds: number };

/** What requests keep a while (servingThreadWork). */
let kept: unknown[] = [];

try {
  const { values } = parseArgs({
    options: {
      rate: { type: 'string', default: '100' },
      seconds: { type: 'string', default: '15' },
      rounds: { type: 'string', default: '3' },
      'work-ms': { type: 'string', default: '2' },
      data: { type: 'string' },
      pin: { type: 'boolean', default: true },
      write: { type: 'boolean', default: true },
    },
    allowNegative: true,
  });
  const rate = positiveInteger('--rate', values.rate);
  const quietSeconds = positiveInteger('--seconds', values.seconds);
  const rounds = positiveInteger('--rounds', values.rounds);
  const workMs = Number(values['work-ms']);
  if (!Number.isFinite(workMs) || workMs < 0) throw new UsageError('--work-ms must be a number of milliseconds, 0 or more');
  const sdn = readDataFile(resolveDataDir(values.data), 'ofac_sdn_2024-05/sdn.csv', 'latin1');

  const pinned = values.pin && os.cpus().length >= 2 && spawnSync('taskset', ['-apc', '1', String(process.pid)]).status === 0;
  const lowered = lowerV8HelperThreads(); // as the service does (src/server.ts)
  const entities = parseOfacLegacy('OFAC_SDN', { main: sdn }).entities;
  const texts = packTexts(entities.map((entity) => JSON.stringify(entity)));
  const queries = entities
    .filter((_, i) => i % QUERY_STRIDE === 0)
    .map((entity): SubjectQuery => ({ name: entity.names[0]?.full ?? entity.entryId, kind: 'any' }));
  const load: Load = { rate, workMs, queries };

  let serving = await startIndexThread([texts], { lingerMs: RETIRED_LINGER_MS });
  prepareNextIndexThread(); // as the service does once its first snapshot is built (src/server.ts)
  await drive(load, serving, 3_000); // warm-up
  const measured: Round[] = [];
  for (let round = 1; round <= rounds; round++) {
    process.stderr.write(`bench:index-swap: round ${round} of ${rounds}: ${quietSeconds} s quiet, then the next index thread builds\n`);
    const quiet = await drive(load, serving, quietSeconds * 1000);
    const started = performance.now();
    const building = startIndexThread([texts], { lingerMs: RETIRED_LINGER_MS });
    const duringBuild = await drive(load, serving, building);
    const buildSeconds = (performance.now() - started) / 1000;
    serving.retire();
    serving = await building;
    measured.push({ quiet, duringBuild, buildSeconds });
  }
  serving.stop();

  const table = report(measured, { entities: entities.length, rate, workMs, quietSeconds, pinned, lowered });
  console.log(`\n${table.join('\n')}`);
  if (values.write) recordBenchmark('Index thread swap, isolated', 'npm run bench:index-swap', table);
} catch (error) {
  exitOnUsageProblem('bench:index-swap', error);
}

/**
 * Requests due every 1/rate seconds, until `until` (a duration in ms, or a build that resolves),
 * each answered by `index`; answers their latencies, counted from when each was due.
 */
async function drive(load: Load, index: IndexThread, until: number | Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  const answers: Promise<void>[] = [];
  const started = performance.now();
  let over = false;
  if (typeof until !== 'number') void until.then(() => (over = true));
  for (let i = 0; typeof until === 'number' ? i * (1000 / load.rate) < until : !over; i++) {
    const due = started + i * (1000 / load.rate);
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const query = load.queries[i % load.queries.length] as SubjectQuery;
    answers.push(request(load.workMs, index, query).then(() => void latencies.push(performance.now() - due)));
  }
  await Promise.all(answers);
  return latencies;
}

async function request(workMs: number, index: IndexThread, query: SubjectQuery): Promise<void> {
  requestStarted();
  try {
    servingThreadWork(workMs);
    await index.screen(query);
  } finally {
    requestEnded();
  }
}

/** The serving thread's own share of a request: busy for `ms`, leaving garbage, a little of it kept a while (as a request's state is). */
function servingThreadWork(ms: number): void {
  const until = performance.now() + ms;
  const made: unknown[] = [];
  while (performance.now() < until) made.push({ at: performance.now(), text: `request ${made.length}` });
  kept.push(made.slice(0, 32));
  if (kept.length > 512) kept = kept.slice(256);
}

function report(
  rounds: readonly Round[],
  run: { entities: number; rate: number; workMs: number; quietSeconds: number; pinned: boolean; lowered: number },
): string[] {
  const quiet = rounds.flatMap((r) => r.quiet);
  const during = rounds.flatMap((r) => r.duringBuild);
  const ratio = p99Ratio(during, quiet);
  return [
    `${run.entities.toLocaleString('en')} SDN entities; ${run.rate} screenings a second, each with ${run.workMs} ms of the serving thread's own work; ${run.quietSeconds} s quiet before each build. ${run.pinned ? 'Pinned to CPU 1' : 'Not pinned'}; ${run.lowered} V8 helper threads lowered.`,
    '',
    '| round | build | answers during it | p99 quiet | p99 during the build | ratio |',
    '|---|---|---|---|---|---|',
    ...rounds.map(
      (r, i) =>
        `| ${i + 1} | ${r.buildSeconds.toFixed(1)} s | ${r.duringBuild.length} | ${ms(p99(r.quiet))} | ${ms(p99(r.duringBuild))} | ${p99Ratio(r.duringBuild, r.quiet).toFixed(2)} × |`,
    ),
    '',
    `Pooled: p99 ${ms(p99(during))} during the builds against ${ms(p99(quiet))} quiet, ${ratio.toFixed(2)} × (the refresh target is at most ${TARGET_P99_RATIO} ×: **${ratio <= TARGET_P99_RATIO ? 'met' : 'missed'}**).`,
  ];
}
