/**
 * bench:watchlists's figures as Markdown: prescreen latency without and with watchlists (the same
 * requests, the same organizations), what loading them cost, each organization's first prescreen
 * after it, the time from adding an entry to it matching, and the service's memory; with the
 * issue's targets.
 */
import type { LoadResult } from '../api/paced-load.ts';
import { summarize } from '../api/report.ts';

export const TARGET_P99_RATIO = 1.2;
export const TARGET_ENTRY_TO_MATCH_MS = 1000;

export type WatchlistRun = {
  database: string;
  organizations: number;
  entriesEach: number;
  largeEntries: number;
  rate: number;
  seconds: number;
  without: LoadResult;
  with: LoadResult;
  loadSeconds: number;
  /** From the first prescreens' end to the last monitoring run the loading queued. */
  monitoringSeconds: number;
  firstPrescreen: { small: number[]; large: number[]; missed: number };
  entryToMatch: { small: number[]; large: number[] };
  rssMiB: { listsOnly: number; withWatchlists: number; peak: number };
  cpuLayout: string;
};

const ms = (value: number) => `${value.toFixed(1)} ms`;
const tags = (result: LoadResult) => [...result.latenciesMs.keys()].sort();
const all = (result: LoadResult) => summarize([...result.latenciesMs.values()].flat().sort((a, b) => a - b));
const failures = (result: LoadResult) =>
  [...result.statusCounts].filter(([status]) => status >= 300).reduce((sum, [, n]) => sum + n, 0) + result.connectionErrors + result.timeouts;

function latencyRows(run: WatchlistRun): string[] {
  const rows: string[] = [];
  for (const [label, result] of [
    ['without watchlists', run.without],
    ['with watchlists', run.with],
  ] as const) {
    const total = all(result);
    rows.push(
      `| ${label} | all | ${result.achievedRate.toFixed(0)}/s | ${ms(total.p50)} | ${ms(total.p95)} | ${ms(total.p99)} | ${ms(total.max)} | ${failures(result)} |`,
    );
    for (const tag of tags(result)) {
      const one = summarize(result.latenciesMs.get(tag) ?? []);
      rows.push(`| ${label} | ${tag} | | ${ms(one.p50)} | ${ms(one.p95)} | ${ms(one.p99)} | ${ms(one.max)} | |`);
    }
  }
  return rows;
}

export function watchlistTable(run: WatchlistRun): string[] {
  const ratio = all(run.with).p99 / all(run.without).p99;
  const small = summarize(run.entryToMatch.small);
  const large = summarize(run.entryToMatch.large);
  const slowest = Math.max(small.max, large.max);
  const first = summarize(run.firstPrescreen.small);
  const firstLarge = summarize(run.firstPrescreen.large);
  return [
    `${run.database}. ${run.cpuLayout}`,
    `${run.organizations.toLocaleString('en')} organizations with one watchlist of ${run.entriesEach} entries each, and one with ${run.largeEntries.toLocaleString('en')} entries, loaded through \`PUT /api/v1/watchlists/{id}/entries\` in ${run.loadSeconds.toFixed(1)} s.`,
    `The monitoring runs the loading queued (one per version that added entries: each organization's workforce, vendors and visitors re-screened against the new entries) finished ${run.monitoringSeconds.toFixed(1)} s after the first prescreens; the prescreens with watchlists were measured after them.`,
    `Prescreens (bench:api's real subjects: listed names, typos, transliterations, clean names; none named as a watchlist entry) at ${run.rate}/s for ${run.seconds} s, each for one of the organizations in turn (one in ten for the large one), the same requests before and after the watchlists were loaded.`,
    '',
    '| run | organizations | achieved | p50 | p95 | p99 | max | not 2xx |',
    '|---|---|---|---|---|---|---|---|',
    ...latencyRows(run),
    '',
    `Each organization's first prescreen after its watchlist was loaded (its watchlist index built on first use): ${run.organizations.toLocaleString('en')} small, p50 ${ms(first.p50)}, p99 ${ms(first.p99)}, max ${ms(first.max)}; the large one ${ms(firstLarge.max)}; ${run.firstPrescreen.missed} of them did not match the name sent.`,
    `From \`POST …/entries\` to a prescreen matching the new entry (one trial at a time, polling every 10 ms): small watchlists p50 ${ms(small.p50)}, max ${ms(small.max)} (${small.count} trials); the large one p50 ${ms(large.p50)}, max ${ms(large.max)} (${large.count} trials).`,
    `Service resident memory: ${run.rssMiB.listsOnly} MiB with the public lists alone, ${run.rssMiB.withWatchlists} MiB with every watchlist in use, ${run.rssMiB.peak} MiB at its peak.`,
    '',
    'Targets:',
    '',
    `- Prescreen p99 with watchlists within ${Math.round((TARGET_P99_RATIO - 1) * 100)}% of without: **${ratio <= TARGET_P99_RATIO ? 'met' : 'missed'}** (${ms(all(run.with).p99)} against ${ms(all(run.without).p99)}, ${ratio.toFixed(2)}×).`,
    `- An added entry matched within ${TARGET_ENTRY_TO_MATCH_MS / 1000} s: **${slowest < TARGET_ENTRY_TO_MATCH_MS ? 'met' : 'missed'}** (slowest ${ms(slowest)}).`,
  ];
}
