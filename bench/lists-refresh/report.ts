/**
 * bench:lists-refresh's figures as Markdown, for one database: the first load of the full set,
 * the refresh of a changed SDN, and prescreen latency while it ran against the quiet figure,
 * with the issue's target (p99 at most 1.5 × quiet).
 */
import { summarize } from '../api/report.ts';

export const TARGET_P99_RATIO = 1.5;

export type Load = { seconds: number; peakRssMiB: number; lists: number; entities: number; databaseCpuSeconds?: number };
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
export type Latencies = { quiet: number[]; duringRefresh: number[]; afterRefresh: number[]; refused: number; errors: number };
export type DatabaseFigures = {
  database: string;
  pinning: string;
  rate: number;
  quietSeconds: number;
  windowSeconds: number;
  firstLoad: Load;
  refresh: Refresh;
  latencies: Latencies;
};

const ms = (value: number) => `${value.toFixed(1)} ms`;
const count = (value: number) => value.toLocaleString('en');

export function figuresTable(f: DatabaseFigures): string[] {
  const { firstLoad, refresh, latencies } = f;
  const row = (period: string, values: number[]) => {
    const s = summarize([...values].sort((a, b) => a - b));
    return `| ${period} | ${count(s.count)} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${ms(s.max)} |`;
  };
  const changes = refresh.changes
    ? `${count(refresh.changes.added)} added, ${count(refresh.changes.removed)} removed, ${count(refresh.changes.changed)} changed`
    : 'changes not read';
  return [
    `${f.database}. The service (\`gatehouse serve\`, LISTS_AUTO_UPDATE on, checks every 3 s) downloads from a publisher on loopback serving all six sources (bench/lists-refresh/published-sets.ts). ${f.pinning}`,
    '',
    '| step | wall time | service peak RSS | what |',
    '|---|---|---|---|',
    `| first load of the full set, empty database | ${firstLoad.seconds.toFixed(1)} s | ${firstLoad.peakRssMiB} MiB | ${firstLoad.lists} lists, ${count(firstLoad.entities)} entities: downloaded, checked, parsed in a worker, written, indexed; from listening until every list is screened against${firstLoad.databaseCpuSeconds === undefined ? '' : `; PostgreSQL spent ${firstLoad.databaseCpuSeconds.toFixed(1)} CPU s`} |`,
    `| refresh of a new OFAC SDN under load | ${refresh.seconds === undefined ? `**not swapped in within ${f.windowSeconds} s**` : `${refresh.seconds.toFixed(1)} s`} | ${refresh.peakRssMiB} MiB${refresh.peakIsTheRefreshs ? '' : ' (peak since start)'} | ${count(refresh.fromEntities)} → ${refresh.toEntities === undefined ? '?' : count(refresh.toEntities)} entities (${changes}): from the first byte requested to the first answer screened against it; the five other sources checked meanwhile, unchanged (304) |`,
    '',
    `\`POST /api/v1/prescreen\` at ${f.rate}/s (real subjects, as bench:api sends them), latency from each request's due time:`,
    '',
    '| period | answered | p50 | p95 | p99 | max |',
    '|---|---|---|---|---|---|',
    row(`quiet, ${f.quietSeconds} s (checks answered 304)`, latencies.quiet),
    row('while the SDN refresh ran', latencies.duringRefresh),
    row('after it, same run', latencies.afterRefresh),
    '',
    `${verdict(latencies)}${latencies.refused + latencies.errors > 0 ? ` ${latencies.refused} answers were not 2xx and ${latencies.errors} requests failed.` : ' Every request was answered 2xx.'}`,
  ];
}

export function verdict(latencies: Latencies): string {
  const quiet = summarize([...latencies.quiet].sort((a, b) => a - b)).p99;
  const during = summarize([...latencies.duringRefresh].sort((a, b) => a - b)).p99;
  if (latencies.duringRefresh.length === 0) return 'Target (p99 during a refresh at most 1.5 × quiet): not judged, no answer fell inside the refresh.';
  const ratio = during / Math.max(quiet, 0.001);
  return `Target, p99 during a refresh at most ${TARGET_P99_RATIO} × quiet: **${ratio <= TARGET_P99_RATIO ? 'met' : 'missed'}** (${ms(during)} against ${ms(quiet)}, ${ratio.toFixed(2)} ×).`;
}
