/**
 * What a process (and, for PostgreSQL, its backends) costs the machine: CPU seconds and resident
 * memory read from /proc, sampled before and after a measured run, so a latency figure comes with
 * the price paid for it. Linux only; elsewhere the figures are absent rather than wrong.
 */
import fs from 'node:fs';

/** /proc/<pid>/stat counts CPU time in clock ticks; Linux fixes USER_HZ at 100 for user space. */
const TICKS_PER_SECOND = 100;

export type UsageSample = { at: number; cpuSeconds: number; rssMiB: number; peakRssMiB: number };
export type UsageDelta = { cpuPercent: number; rssBeforeMiB: number; rssAfterMiB: number; peakRssMiB: number };

/** utime + stime of one process, in seconds; undefined once it has gone. */
function cpuSecondsOf(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

function statusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The process and its direct children (PostgreSQL's backends are children of the postmaster). */
export function processAndChildren(pid: number): number[] {
  const children: number[] = [];
  for (const entry of fs.existsSync('/proc') ? fs.readdirSync('/proc') : []) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return [pid, ...children];
}

/** CPU and memory summed over the given processes (one server, or a postmaster and its backends). */
export function sampleUsage(pids: readonly number[]): UsageSample {
  let cpuSeconds = 0;
  let rssKiB = 0;
  let peakKiB = 0;
  for (const pid of pids) {
    cpuSeconds += cpuSecondsOf(pid) ?? 0;
    rssKiB += statusKiB(pid, 'VmRSS');
    peakKiB += statusKiB(pid, 'VmHWM');
  }
  return { at: performance.now(), cpuSeconds, rssMiB: Math.round(rssKiB / 1024), peakRssMiB: Math.round(peakKiB / 1024) };
}

/** CPU as a share of one core over the interval (200% = both cores of this machine). */
export function usageBetween(before: UsageSample, after: UsageSample): UsageDelta {
  const wallSeconds = (after.at - before.at) / 1000;
  return {
    cpuPercent: wallSeconds > 0 ? Math.round((100 * (after.cpuSeconds - before.cpuSeconds)) / wallSeconds) : 0,
    rssBeforeMiB: before.rssMiB,
    rssAfterMiB: after.rssMiB,
    peakRssMiB: after.peakRssMiB,
  };
}

/**
 * Starts a new peak: Linux resets a process's VmHWM to its current RSS when 5 is written to its
 * clear_refs, so the peak read afterwards belongs to what ran since. False where that is refused.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
