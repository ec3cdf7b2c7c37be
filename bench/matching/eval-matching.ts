/**
 * npm run eval:matching [-- --set a,b,c,d,e,f] [--threshold T] [--matchers engine,watchman] [--data DIR] [--no-write]
 *
 * Measures the matcher on the labelled sets of issue 4 ("Measured, not promised") and the name
 * classes of issue 30 (set f): precision,
 * recall, F1 and alerts per 1,000 clean subjects at the default threshold (or --threshold),
 * on all rows and on the never-tuned test part, next to the logic-v2 and watchman baselines.
 * Prints the table and the 20 worst misses per set, and writes the table to BENCHMARKS.md unless
 * --no-write. Exit code 2 when the list data or an argument is missing or wrong.
 */
import { parseArgs } from 'node:util';
import { recordBenchmark } from '../benchmarks-file.ts';
import { exitOnUsageProblem, resolveDataDir, UsageError } from './eval-data.ts';
import { loadAllLists, loadUnList } from './list-loading.ts';
import { selectMatchers } from './matchers.ts';
import { outcomeTable, printWorst, SPLIT_STATEMENT } from './report.ts';
import { runCrossScript } from './sets/cross-script.ts';
import { runNameBench } from './sets/name-bench.ts';
import { runNameClasses } from './sets/name-classes.ts';
import { runNegatives } from './sets/negatives.ts';
import { runTemporalHoldout } from './sets/temporal-holdout.ts';
import { runUnPositives } from './sets/un-positives.ts';
import type { SetResult } from './tally.ts';

const SETS = ['a', 'b', 'c', 'd', 'e', 'f'];

try {
  const { values } = parseArgs({
    options: {
      set: { type: 'string', default: SETS.join(',') },
      threshold: { type: 'string' },
      matchers: { type: 'string', default: 'engine,watchman' },
      data: { type: 'string' },
      write: { type: 'boolean', default: true },
    },
    allowNegative: true,
  });
  const sets = values.set.split(',').map((s) => s.trim());
  const unknown = sets.filter((s) => !SETS.includes(s));
  if (unknown.length > 0) throw new UsageError(`unknown set ${unknown.join(', ')}: choose among ${SETS.join(', ')}`);
  const threshold = values.threshold === undefined ? undefined : Number(values.threshold);
  if (threshold !== undefined && !(threshold >= 0 && threshold <= 1)) throw new UsageError('--threshold must be a number in [0, 1]');
  const dataDir = resolveDataDir(values.data);
  const matchers = selectMatchers(values.matchers.split(',').map((m) => m.trim()));

  const results: SetResult[] = [];
  const timed = async (name: string, run: () => SetResult | Promise<SetResult>) => {
    const started = performance.now();
    process.stderr.write(`set ${name}…\n`);
    results.push(await run());
    process.stderr.write(`set ${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  };
  if (sets.includes('a')) await timed('a', () => runNameBench(dataDir, matchers, threshold));
  if (sets.includes('b')) await timed('b', async () => runUnPositives(dataDir, await loadUnList(dataDir), matchers, threshold));
  if (sets.includes('c')) {
    await timed('c', async () => {
      const { lists, missing } = await loadAllLists(dataDir);
      const result = runNegatives(
        dataDir,
        lists.flatMap((l) => l.entities),
        matchers,
        threshold,
      );
      const loaded = lists.map((l) => `${l.list} ${l.entities.length}`).join(', ');
      result.notes.push(`c. lists screened: ${loaded}${missing.length > 0 ? `; not yet parseable: ${missing.join(', ')}` : ''}`);
      return result;
    });
  }
  if (sets.includes('d')) await timed('d', () => runCrossScript(dataDir, matchers, threshold));
  if (sets.includes('e')) await timed('e', () => runTemporalHoldout(dataDir, matchers, threshold));
  if (sets.includes('f')) await timed('f', () => runNameClasses(dataDir, matchers, threshold));

  const table = outcomeTable(results.flatMap((r) => r.outcomes));
  const notes = results.flatMap((r) => r.notes);
  console.log(table.join('\n'));
  console.log(`\n${notes.join('\n')}`);
  printWorst(results.flatMap((r) => r.worst));
  if (values.write) {
    recordBenchmark(
      `Matching quality (sets ${sets.join(', ')})`,
      `npm run eval:matching -- --set ${sets.join(',')}${threshold === undefined ? '' : ` --threshold ${threshold}`}`,
      [...SPLIT_STATEMENT, '', ...table, '', ...notes.filter((n) => !n.startsWith('  ')).map((n) => `- ${n}`)],
    );
  }
} catch (error) {
  exitOnUsageProblem('eval:matching', error);
}
