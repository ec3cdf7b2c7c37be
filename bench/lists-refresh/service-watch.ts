/**
 * What bench:lists-refresh reads from the running service: its log lines (one per source
 * checked, from src/lists/list-refresher.ts), its readiness, its active list versions and the
 * SDN version each prescreen answer was screened against.
 */
import type { ServiceProcess } from '../api/service-process.ts';

const FIRST_LOAD_TIMEOUT_MS = 600_000;

type SourceReport = { source: string; status: string; msg: string; imported?: string[] };

/** The refresher's line per source checked, as logged so far. */
function sourceReports(output: string): Map<string, SourceReport> {
  const reports = new Map<string, SourceReport>();
  for (const line of output.split('\n')) {
    if (!line.includes('"source":')) continue;
    try {
      const entry = JSON.parse(line) as Partial<SourceReport>;
      if (entry.source && entry.status) reports.set(entry.source, entry as SourceReport);
    } catch {
      // A line cut by the kept output's limit.
    }
  }
  return reports;
}

/**
 * Resolves once every source has been checked and every list imported is screened against (the
 * catalog swaps each in after its source's line is logged); throws if a source failed.
 */
export async function waitForFirstLoad(service: ServiceProcess, headers: Record<string, string>, sourceCount: number): Promise<ActiveVersion[]> {
  const deadline = performance.now() + FIRST_LOAD_TIMEOUT_MS;
  while (performance.now() < deadline) {
    const reports = [...sourceReports(service.output()).values()];
    const failed = reports.filter((r) => r.status === 'failed');
    if (failed.length > 0) throw new Error(`the first download failed: ${failed.map((r) => r.msg).join('\n')}`);
    if (reports.length >= sourceCount) {
      const active = await listsOf(service.baseUrl, headers);
      const screened = new Set(active.map((v) => v.list));
      if (reports.every((r) => (r.imported ?? []).every((list) => screened.has(list)))) return active;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the service had not loaded every source within ${FIRST_LOAD_TIMEOUT_MS / 1000} s:\n${service.output().slice(-4000)}`);
}

export type ActiveVersion = { list: string; version_id: string; entity_count: number; changes: { added: number; removed: number; changed: number } };

/** GET /api/v1/lists: the versions the service screens against now. */
export async function listsOf(baseUrl: string, headers: Record<string, string>): Promise<ActiveVersion[]> {
  const response = await fetch(`${baseUrl}/v1/lists`, { headers });
  if (!response.ok) throw new Error(`GET /v1/lists answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { data: ActiveVersion[] }).data;
}

/** The OFAC SDN version a prescreen answer was screened against. */
export function sdnVersionIn(body: string): string | undefined {
  const answer = JSON.parse(body) as { list_versions?: { list: string; version_id: string }[] };
  return answer.list_versions?.find((v) => v.list === 'OFAC_SDN')?.version_id;
}
