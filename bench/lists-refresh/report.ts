/**
 * bench:lists-refresh's figures as Markdown, for one database: the first load of the full set,
 * each refresh of a changed SDN, and prescreen latency while they ran against the quiet periods
 * before them, pooled and per refresh, with the issue's target (p99 at most 1.5 × quiet).
 */
import { summarize } from '../api/report.ts';
import type { SdnEdition } from './published-sets.ts';

export const TARGET_P99_RATIO = 1.5;

export type FirstLoad = { seconds: number; peakRssMiB: number; lists: number; entities: number; databaseCpuSeconds?: number };
export type Refresh = {
  /** From the first download of the new file to the first answer screened against the new version; undefined if it never came. */
  seconds: number | undefined;
  peakRssMiB: number;
  /** Whether the peak was reset before the refresh (else it is the process's peak since start). */
  peakIsTheRefreshs: boolean;
  changes: { added: number; removed: number; changed: number } | undefined;
  fromEntities: number;
  toEntities: number | undefined;
};
/** A quiet period, then a window in which `edition` was published and swapped in; latencies of the 2xx answers. */
export type Round = { edition: SdnEdition; refresh: Refresh; quiet: number[]; duringRefresh: number[]; afterRefresh: number[] };
export type DatabaseFigures = {
  database: string;
  pinning: string;
  rate: number;
  quietSeconds: number;
  windowSeconds: number;
  firstLoad: FirstLoad;
  rounds: Round[];
  /** Answers that were not 2xx, and requests that failed, over every round. */
  refused: number;
  errors: number;
};

export const ms = (value: number) => `${value.toFixed(1)} ms`;
const count = (value: number) => value.toLocaleString('en');
export const p99 = (values: readonly number[]) => summarize([...values].sort((a, b) => a - b)).p99;
/** p99 of `during` against p99 of `quiet`: the figure the target is set on. */
export const p99Ratio = (during: readonly number[], quiet: readonly number[]) => p99(during) / Math.max(p99(quiet), 0.001);

export function figuresTable(f: DatabaseFigures): string[] {
  const { firstLoad, rounds } = f;
  const row = (period: string, values: number[]) => {
    const s = summarize([...values].sort((a, b) => a - b));
    return `| ${period} | ${count(s.count)} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${ms(s.max)} |`;
  };
  const pooled = (pick: (round: Round) => number[]) => rounds.flatMap(pick);
  const quiet = pooled((r) => r.quiet);
  const during = pooled((r) => r.duringRefresh);
  return [
    `${f.database}. The service (\`gatehouse serve\`, LISTS_AUTO_UPDATE on, checks every 3 s) downloads from a publisher on loopback serving all six sources (bench/lists-refresh/published-sets.ts). ${f.pinning}`,
    '',
    `First load of the full set on an empty database: ${firstLoad.seconds.toFixed(1)} s, peak RSS ${firstLoad.peakRssMiB} MiB (${firstLoad.lists} lists, ${count(firstLoad.entities)} entities: downloaded, checked, parsed in a worker, written, indexed; from listening until every list is screened against${firstLoad.databaseCpuSeconds === undefined ? '' : `; PostgreSQL spent ${firstLoad.databaseCpuSeconds.toFixed(1)} CPU s`}).`,
    '',
    `Then ${rounds.length} refreshes under load, each after ${f.quietSeconds} s of the same load while the checks were answered 304. A refresh lasts from the first byte of the new SDN requested to the first answer screened against it; the five other sources were checked meanwhile, unchanged (304). \`POST /api/v1/prescreen\` at ${f.rate}/s (real subjects, as bench:api sends them), latency from each request's due time:`,
    '',
    '| refresh | SDN published | wall time | service peak RSS | entities | quiet p99 | p99 during it | during / quiet |',
    '|---|---|---|---|---|---|---|---|',
    ...rounds.map((round, i) => roundRow(i + 1, round, f.windowSeconds)),
    '',
    '| period, all refreshes | answered | p50 | p95 | p99 | max |',
    '|---|---|---|---|---|---|',
    row(`quiet, ${rounds.length} × ${f.quietSeconds} s`, quiet),
    row('while the refreshes ran', during),
    row(
      'after them, to the end of each window',
      pooled((r) => r.afterRefresh),
    ),
    '',
    `${verdict(quiet, during)}${f.refused + f.errors > 0 ? ` ${f.refused} answers were not 2xx and ${f.errors} requests failed.` : ' Every request was answered 2xx.'}`,
  ];
}

function roundRow(n: number, round: Round, windowSeconds: number): string {
  const { refresh } = round;
  const changes = refresh.changes
    ? `${count(refresh.changes.added)} added, ${count(refresh.changes.removed)} removed, ${count(refresh.changes.changed)} changed`
    : 'changes not read';
  const wall = refresh.seconds === undefined ? `**not swapped in within ${windowSeconds} s**` : `${refresh.seconds.toFixed(1)} s`;
  const rss = `${refresh.peakRssMiB} MiB${refresh.peakIsTheRefreshs ? '' : ' (peak since start)'}`;
  const entities = `${count(refresh.fromEntities)} → ${refresh.toEntities === undefined ? '?' : count(refresh.toEntities)} (${changes})`;
  const ratio = round.duringRefresh.length === 0 ? 'no answer inside it' : `${p99Ratio(round.duringRefresh, round.quiet).toFixed(2)} ×`;
  return `| ${n} | ${round.edition} | ${wall} | ${rss} | ${entities} | ${ms(p99(round.quiet))} | ${ms(p99(round.duringRefresh))} | ${ratio} |`;
}

export function verdict(quiet: readonly number[], during: readonly number[]): string {
  if (during.length === 0) return `Target (p99 during a refresh at most ${TARGET_P99_RATIO} × quiet): not judged, no answer fell inside a refresh.`;
  const ratio = p99Ratio(during, quiet);
  return `Target, p99 during a refresh at most ${TARGET_P99_RATIO} × quiet (pooled over the refreshes): **${ratio <= TARGET_P99_RATIO ? 'met' : 'missed'}** (${ms(p99(during))} against ${ms(p99(quiet))}, ${ratio.toFixed(2)} ×).`;
}
