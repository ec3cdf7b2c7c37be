/**
 * A list update as the monitoring benchmarks make one (bench:workforce, bench:ownership-reevaluation):
 * the real SDN file's rows, a share of them with their remarks edited (changed entries, names
 * kept), written as a folder `gatehouse lists import` reads; then the monitoring run it queues,
 * waited for through the API; and the service's memory from Linux's /proc.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type MonitoringRun = {
  list: string;
  status: string;
  counts: Record<string, number>;
  started_at: string | null;
  finished_at: string | null;
  changed_entries: number;
};

/** The rows of OFAC's legacy sdn.csv, without its end-of-file mark and blank lines. */
export const sdnRows = (text: string): string[] =>
  text
    .replace(/\x1a\s*$/, '')
    .split(/\r?\n/)
    .filter((r) => r.trim() !== '');

/** Every row whose place is a multiple of 100 / `percent` with its remarks edited: the entry changes, its names do not. */
export function withEditedRemarks(rows: readonly string[], percent: number): { rows: string[]; changed: number } {
  const every = Math.round(100 / percent);
  let changed = 0;
  const edited = rows.map((row, i) => {
    if (i % every !== 0) return row;
    changed += 1;
    return row
      .replace(/,"([^"]*)"\s*$/, (_m, remarks: string) => `,"${remarks}; amended in the benchmark's update."`)
      .replace(/,-0- \s*$/, `,"Amended in the benchmark's update."`);
  });
  return { rows: edited, changed };
}

/** The rows as a folder with one sdn.csv, for `gatehouse lists import`; `cleanUp` is given its removal. */
export function sdnFolder(rows: readonly string[], cleanUp: (remove: () => void) => void): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bench-sdn-'));
  fs.writeFileSync(path.join(folder, 'sdn.csv'), `${rows.join('\r\n')}\r\n\x1a`, 'latin1');
  cleanUp(() => fs.rmSync(folder, { recursive: true, force: true }));
  return folder;
}

/** The newest OFAC_SDN run, once it completed (ten minutes at most). */
export async function waitForSdnRun(baseUrl: string, headers: Record<string, string>): Promise<MonitoringRun> {
  const deadline = Date.now() + 600_000;
  while (Date.now() < deadline) {
    const { data } = (await (await fetch(`${baseUrl}/v1/monitoring/runs?limit=5`, { headers })).json()) as { data: MonitoringRun[] };
    const run = data.find((r) => r.list === 'OFAC_SDN');
    if (run?.status === 'completed') return run;
    if (run?.status === 'failed') throw new Error(`the monitoring run failed: ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the monitoring run did not complete within 10 minutes');
}

export const runSeconds = (run: MonitoringRun) => (Date.parse(run.finished_at as string) - Date.parse(run.started_at as string)) / 1000;

/** The process's resident set now (VmRSS) or its high-water mark so far (VmHWM), from Linux's /proc. */
export function rssMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024);
}

export function formatCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([k, v]) => `${k} ${v.toLocaleString('en')}`)
    .join(', ');
}
