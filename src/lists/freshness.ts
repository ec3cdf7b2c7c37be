/**
 * How current each loaded list is, measured the way an auditor would: from its last successful
 * check (a check that found it unchanged, or an import), not from the publisher's date. A list
 * past its maximum age is stale; a source whose last N checks failed is failing. Either makes
 * the service degraded: it still serves, and says so everywhere (readyz, GET /v1/lists, metrics,
 * the console, each screening, the events below).
 *
 * Every serving process polls the few rows this needs and raises the transitions as events
 * (`lists.stale`, `lists.update_failed`, `lists.recovered`); the store's guarded updates make
 * sure only one process sends each.
 */
import type { ListCode } from '../screening/model.ts';
import { type ListSource, type SourceName, sourceOfList } from './list-sources.ts';
import type { ListsConfig } from './lists-config.ts';
import type { FreshnessAlert, ListConfirmation, SourceCheck, SourceCheckStore } from './source-check-store.ts';
import { withoutUrlSecrets } from './url-secrets.ts';

export type ListFreshness = {
  list: ListCode;
  versionId: string;
  /** The configured source that is its authority; null for a list only ever imported by hand. */
  source: SourceName | null;
  /** Its last successful check. */
  confirmedAt: Date;
  ageHours: number;
  maxAgeHours: number;
  stale: boolean;
  /** Its source failed its last N checks (the list may still be within its age). */
  sourceFailing: boolean;
};

export type SourceHealth = {
  source: SourceName;
  label: string;
  lists: ListCode[];
  lastAttemptAt: Date | null;
  lastSuccessAt: Date | null;
  consecutiveFailures: number;
  lastError: string | null;
  failing: boolean;
};

export type FreshnessReport = {
  lists: ListFreshness[];
  sources: SourceHealth[];
  /** Some list is stale or some source failing. */
  degraded: boolean;
  /** One sentence per reason, for readiness and logs. */
  problems: string[];
};

export type FreshnessSettings = Pick<ListsConfig, 'maxAgeHours' | 'failedChecksBeforeDegraded'>;

/** The report at `now` from the stored rows: pure, so every rule is tested without a clock or a database. */
export function evaluateFreshness(
  confirmations: ListConfirmation[],
  checks: SourceCheck[],
  sources: ListSource[],
  settings: FreshnessSettings,
  now: Date,
): FreshnessReport {
  const checkOf = new Map(checks.map((c) => [c.source, c]));
  const health: SourceHealth[] = sources.map((source) => {
    const check = checkOf.get(source.name);
    const failures = check?.consecutiveFailures ?? 0;
    return {
      source: source.name,
      label: source.label,
      lists: source.lists,
      lastAttemptAt: check?.lastAttemptAt ?? null,
      lastSuccessAt: check?.lastSuccessAt ?? null,
      consecutiveFailures: failures,
      // Shown to every organization (readyz, GET /v1/lists, the event): a URL's token stays in the log.
      lastError: check?.lastError ? withoutUrlSecrets(check.lastError) : null,
      failing: failures >= settings.failedChecksBeforeDegraded,
    };
  });
  const lists = confirmations.map((c): ListFreshness => {
    const source = sourceOfList(sources, c.list);
    const maxAgeHours = settings.maxAgeHours[c.list] ?? settings.maxAgeHours['*'];
    const ageHours = Math.max(0, (now.getTime() - c.confirmedAt.getTime()) / 3_600_000);
    return {
      list: c.list,
      versionId: c.versionId,
      source: source?.name ?? null,
      confirmedAt: c.confirmedAt,
      ageHours,
      maxAgeHours,
      stale: ageHours > maxAgeHours,
      sourceFailing: health.some((h) => h.source === source?.name && h.failing),
    };
  });
  const problems = [
    ...lists
      .filter((l) => l.stale)
      .map((l) => `${l.list} was last confirmed current ${describeHours(l.ageHours)} ago (maximum ${describeHours(l.maxAgeHours)})`),
    ...health.filter((h) => h.failing).map((h) => `${h.label} failed its last ${h.consecutiveFailures} checks${h.lastError ? `: ${h.lastError}` : ''}`),
  ];
  return { lists, sources: health, degraded: problems.length > 0, problems };
}

/** The alerts the report calls for that the stored state has not recorded yet (or recorded and now clears). */
export function pendingAlerts(report: FreshnessReport, confirmations: ListConfirmation[], checks: SourceCheck[]): FreshnessAlert[] {
  const alerts: FreshnessAlert[] = [];
  const staleSince = new Map(confirmations.map((c) => [c.list, c.staleSince]));
  for (const list of report.lists) {
    const recorded = staleSince.get(list.list) ?? null;
    const confirmedAt = list.confirmedAt.toISOString();
    if (list.stale && !recorded) {
      alerts.push({
        type: 'lists.stale',
        list: list.list,
        data: { list: list.list, version_id: list.versionId, confirmed_at: confirmedAt, max_age_hours: list.maxAgeHours },
      });
    } else if (!list.stale && recorded) {
      alerts.push({ type: 'lists.recovered', list: list.list, data: { list: list.list, version_id: list.versionId, confirmed_at: confirmedAt } });
    }
  }
  const failingSince = new Map(checks.map((c) => [c.source, c.failingSince]));
  for (const source of report.sources) {
    const recorded = failingSince.get(source.source) ?? null;
    if (source.failing && !recorded) {
      alerts.push({
        type: 'lists.update_failed',
        source: source.source,
        data: {
          source: source.source,
          lists: source.lists,
          consecutive_failures: source.consecutiveFailures,
          error: source.lastError,
          last_success_at: source.lastSuccessAt?.toISOString() ?? null,
        },
      });
    } else if (source.consecutiveFailures === 0 && recorded) {
      alerts.push({
        type: 'lists.recovered',
        source: source.source,
        data: { source: source.source, lists: source.lists, last_success_at: source.lastSuccessAt?.toISOString() ?? null },
      });
    }
  }
  return alerts;
}

export type ListFreshnessMonitor = {
  /** The report as of now, from the rows last read. */
  report(now?: Date): FreshnessReport;
  /** Reads the rows again and raises what changed; resolves when done. */
  reload(): Promise<void>;
  close(): void;
};

/** Polls every `reloadSeconds`, like the catalog; a failed poll keeps the last rows. */
export async function openFreshnessMonitor(
  store: SourceCheckStore,
  sources: ListSource[],
  settings: FreshnessSettings & { reloadSeconds: number },
  onError: (error: unknown) => void,
): Promise<ListFreshnessMonitor> {
  let confirmations: ListConfirmation[] = [];
  let checks: SourceCheck[] = [];
  let inFlight: Promise<void> | undefined;
  const reloadNow = async () => {
    [confirmations, checks] = await Promise.all([store.confirmations(), store.checks()]);
    const alerts = pendingAlerts(evaluateFreshness(confirmations, checks, sources, settings, new Date()), confirmations, checks);
    if (alerts.length === 0) return;
    for (const alert of alerts) await store.raise(alert);
    [confirmations, checks] = await Promise.all([store.confirmations(), store.checks()]);
  };
  const reload = () => (inFlight ??= reloadNow().finally(() => (inFlight = undefined)));
  await reload().catch(onError);
  const timer = setInterval(() => reload().catch(onError), settings.reloadSeconds * 1000);
  timer.unref();
  return {
    report: (now = new Date()) => evaluateFreshness(confirmations, checks, sources, settings, now),
    reload,
    close: () => clearInterval(timer),
  };
}

/** An age in the largest whole unit that reads naturally: "12 days", "5 hours", "20 minutes". */
export function describeHours(hours: number): string {
  if (hours >= 48) return `${Math.floor(hours / 24)} days`;
  if (hours >= 1) return `${Math.floor(hours)} hours`;
  return `${Math.floor(hours * 60)} minutes`;
}
