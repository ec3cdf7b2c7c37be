/**
 * npm run bench:ownership [-- --seed S] [--runs N] [--no-write]
 *
 * How long does an ownership check take, and how much memory, on graphs of 1,000, 10,000 and
 * 100,000 entities with three links each (bench/ownership/random-graph.ts: heavy-tailed fan-in,
 * cycles, unknown stakes, control links)? Times the validation and the evaluation of both rules
 * separately, median of N runs after a warm-up, on one core; the target is the youngest company
 * the rules reach through ownership, so paths are explained too. Prints the target
 * (100,000 entities and 300,000 links in under 1 s, growing linearly) next to the figures and
 * writes them to BENCHMARKS.md.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { evaluateOwnership } from '../src/ownership/evaluate.ts';
import type { OwnershipQuery } from '../src/ownership/types.ts';
import { validateOwnershipQuery } from '../src/ownership/validate.ts';
import { recordBenchmark } from './benchmarks-file.ts';
import { exitOnUsageProblem, UsageError } from './matching/eval-data.ts';
import { randomOwnershipGraph } from './ownership/random-graph.ts';

const SIZES = [
  { entities: 1_000, links: 3_000 },
  { entities: 10_000, links: 30_000 },
  { entities: 100_000, links: 300_000 },
];
const TARGET_SECONDS = 1;
const AS_OF = '2026-11-22';
const MiB = 2 ** 20;

try {
  const { values } = parseArgs({
    options: { seed: { type: 'string', default: '20261122' }, runs: { type: 'string', default: '9' }, write: { type: 'boolean', default: true } },
    allowNegative: true,
  });
  const runs = Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new UsageError('--runs must be a positive whole number');
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new UsageError('run it as npm run bench:ownership (it needs node --expose-gc)');

  const loadAtStart = os.loadavg()[0]?.toFixed(1);
  const rows = [];
  for (const size of SIZES) {
    collect();
    const heapBefore = process.memoryUsage().heapUsed;
    const query = withCoveredTarget(randomOwnershipGraph(size.entities, size.links, Number(values.seed), AS_OF));
    collect();
    const inputMiB = (process.memoryUsage().heapUsed - heapBefore) / MiB;

    const validateMs: number[] = [];
    const evaluateMs: number[] = [];
    let heapGrowthMiB = 0;
    let verdict = evaluateOwnership(query);
    for (let run = -1; run < runs; run++) {
      collect();
      const heapAtStart = process.memoryUsage().heapUsed;
      const started = process.hrtime.bigint();
      const validation = validateOwnershipQuery(query);
      const validated = process.hrtime.bigint();
      verdict = evaluateOwnership(query, {}, validation.resolved);
      const ended = process.hrtime.bigint();
      // The first run warms the code up; its figures are not kept.
      if (run < 0) continue;
      validateMs.push(Number(validated - started) / 1e6);
      evaluateMs.push(Number(ended - validated) / 1e6);
      heapGrowthMiB = Math.max(heapGrowthMiB, (process.memoryUsage().heapUsed - heapAtStart) / MiB);
    }
    const totalMs = median(validateMs) + median(evaluateMs);
    rows.push({
      ...size,
      validateMs: median(validateMs),
      evaluateMs: median(evaluateMs),
      totalMs,
      bestMs: Math.min(...validateMs.map((v, i) => v + (evaluateMs[i] as number))),
      nsPerItem: (totalMs * 1e6) / (size.entities + size.links),
      inputMiB,
      heapGrowthMiB,
      rssMiB: process.resourceUsage().maxRSS / 1024,
      covered: `${verdict.entities.filter((e) => e.ofac_blocked).length.toLocaleString('en')} / ${verdict.entities.filter((e) => e.bis_restricted).length.toLocaleString('en')}`,
      target: `${verdict.ofac.blocked ? 'blocked' : 'not blocked'}, ${verdict.ofac.paths.length} paths, ${verdict.warnings.length} warnings`,
    });
  }

  const largest = rows.at(-1) as (typeof rows)[number];
  const met = largest.totalMs < TARGET_SECONDS * 1000;
  const growth = (largest.nsPerItem / (rows[1]?.nsPerItem ?? largest.nsPerItem)).toFixed(2);
  const table = [
    `Random graphs (bench/ownership/random-graph.ts, seed ${values.seed}): one entity in six a person, heavy-tailed fan-in, ~1% of links pointing back up (cycles), 3% unknown stakes, 2% control links, ~1% of parties listed. as_of ${AS_OF} (BIS rule in force). Median of ${runs} runs after a warm-up, one core; load average ${loadAtStart} when it started (other work on the machine slows the medians; the best run shows less of it).`,
    '',
    '| entities | links | validate | evaluate (both rules, paths, warnings) | total | best run | per entity + link | input on the heap | heap growth during one check | peak RSS so far | blocked / BIS-restricted | target |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.entities.toLocaleString('en')} | ${r.links.toLocaleString('en')} | ${r.validateMs.toFixed(1)} ms | ${r.evaluateMs.toFixed(1)} ms | ${r.totalMs.toFixed(1)} ms | ${r.bestMs.toFixed(1)} ms | ${r.nsPerItem.toFixed(0)} ns | ${r.inputMiB.toFixed(1)} MiB | ${r.heapGrowthMiB.toFixed(1)} MiB | ${r.rssMiB.toFixed(0)} MiB | ${r.covered} | ${r.target} |`,
    ),
    '',
    `100,000 entities and 300,000 links: ${largest.totalMs.toFixed(0)} ms, target < ${TARGET_SECONDS} s ${met ? 'met' : '**missed**'}. Time per entity + link at 100,000 is ${growth}× that at 10,000 (1.00 is linear).`,
    'Not included: what the HTTP route adds before it, reading and schema-checking the JSON body (about 20 MB for the largest graph; its parse alone took about 0.4 s here) and screening names (about 2,000 a second).',
  ];
  console.log(table.join('\n'));
  if (values.write) recordBenchmark('Ownership check, random graphs', 'npm run bench:ownership', table);
} catch (error) {
  exitOnUsageProblem('bench:ownership', error);
}

/**
 * The same graph with its target moved to the youngest company the OFAC rule reaches through
 * ownership (not listed itself), so that the timed checks explain a real verdict.
 */
function withCoveredTarget(query: OwnershipQuery): OwnershipQuery {
  const everything = evaluateOwnership(query);
  const listed = new Set(query.entities.filter((e) => (e.designations ?? []).length > 0).map((e) => e.id));
  const covered = everything.entities.filter((e) => e.ofac_blocked && !listed.has(e.id)).at(-1);
  return covered ? { ...query, target: covered.id } : query;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
