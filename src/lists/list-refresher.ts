/**
 * The scheduled refresh in `serve`: every process looks at the stored checks now and then, and
 * when a source is due (its last attempt older than LISTS_REFRESH_INTERVAL, or sooner with
 * backoff after a failure) the one process holding the lease checks it. The others learn of a
 * new version from the database, as they do of an import (catalog.ts), and of a fresh check from
 * the freshness monitor. Due-ness is read from the database after the lease is taken, so two
 * processes never check, let alone download, the same version twice.
 *
 * On the embedded database the one process does it all, while it serves: the import writes in
 * small steps and the new snapshot is swapped in when complete (list-store.ts, catalog.ts).
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { ListCatalog } from './catalog.ts';
import type { ListFreshnessMonitor } from './freshness.ts';
import type { ListSource } from './list-sources.ts';
import { type ListTables, type SourceOutcome, updateLists } from './list-update.ts';
import type { ListsConfig } from './lists-config.ts';
import type { SourceCheck } from './source-check-store.ts';
import { withoutUrlSecrets } from './url-secrets.ts';

type Log = { info(fields: object, message: string): void; warn(fields: object, message: string): void; error(fields: object, message: string): void };

export type ListRefresher = {
  /** Checks the sources that are due now; resolves with what it did (undefined: nothing due, or another process holds the lease). */
  runDue(): Promise<SourceOutcome[] | undefined>;
  stop(): Promise<void>;
};

/** The longest wait between two looks at the stored checks. */
const MAX_TICK_MS = 60_000;
const LEASE_SECONDS = 120;
const RENEW_EVERY_MS = 30_000;
/** The first retry after a failure comes after this, doubling up to the interval. */
const FIRST_RETRY_SECONDS = 60;

export function startListRefresher(deps: {
  db: ListTables;
  sources: ListSource[];
  catalog: ListCatalog;
  freshness: ListFreshnessMonitor;
  config: ListsConfig;
  log: Log;
}): ListRefresher {
  const { db, sources, catalog, freshness, config, log } = deps;
  const holder = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const intervalMs = config.refreshIntervalSeconds * 1000;
  let running: Promise<SourceOutcome[] | undefined> | undefined;
  let stopped = false;

  const round = async (): Promise<SourceOutcome[] | undefined> => {
    if (dueSources(sources, await db.listChecks.checks(), config, new Date()).length === 0) return undefined;
    if (!(await db.listChecks.acquireLease(holder, LEASE_SECONDS))) return undefined;
    // Renewed while the round lasts; a holder that dies stops renewing and loses it within LEASE_SECONDS.
    const heartbeat = setInterval(() => {
      db.listChecks.acquireLease(holder, LEASE_SECONDS).catch((error) => log.warn({ err: error }, 'could not renew the list refresh lease'));
    }, RENEW_EVERY_MS);
    heartbeat.unref();
    try {
      // Read again under the lease: the process that held it before may just have checked them.
      const due = dueSources(sources, await db.listChecks.checks(), config, new Date());
      if (due.length === 0) return undefined;
      const outcomes: SourceOutcome[] = [];
      // One source at a time, each reported and swapped in as soon as it is done.
      for (const source of due) {
        if (stopped) break;
        const [outcome] = await updateLists(db, [source], {
          configured: sources,
          browserUserAgent: config.browserUserAgent,
          shrinkLimitPercent: config.shrinkLimitPercent,
          timeoutMs: config.downloadTimeoutMs,
          retries: config.downloadRetries,
        });
        report(outcome as SourceOutcome, log);
        outcomes.push(outcome as SourceOutcome);
        if (outcome?.status === 'imported' && !stopped) await catalog.refresh();
      }
      return outcomes;
    } finally {
      clearInterval(heartbeat);
      await db.listChecks.releaseLease(holder);
      if (!stopped) {
        await catalog.refresh();
        await freshness.reload();
      }
    }
  };
  const runDue = () => (running ??= round().finally(() => (running = undefined)));

  const tick = () => {
    runDue().catch((error) => log.error({ err: error }, 'the scheduled list refresh failed; it is tried again at the next tick'));
  };
  const timer = setInterval(tick, Math.min(intervalMs, MAX_TICK_MS));
  timer.unref();
  tick();
  return {
    runDue,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

/** The sources to check at `now`: never tried, last tried an interval ago, or failing and past their backoff. */
export function dueSources(sources: ListSource[], checks: SourceCheck[], config: Pick<ListsConfig, 'refreshIntervalSeconds'>, now: Date): ListSource[] {
  const checkOf = new Map(checks.map((c) => [c.source, c]));
  return sources.filter((source) => {
    const check = checkOf.get(source.name);
    if (!check?.lastAttemptAt) return true;
    const waitSeconds =
      check.consecutiveFailures > 0
        ? Math.min(config.refreshIntervalSeconds, FIRST_RETRY_SECONDS * 2 ** (check.consecutiveFailures - 1))
        : config.refreshIntervalSeconds;
    return now.getTime() - check.lastAttemptAt.getTime() >= waitSeconds * 1000;
  });
}

const OFFLINE_HINT =
  'Without network access, copy the list files to this machine and run `gatehouse lists import PATH` (or set LISTS_DIR); ' +
  'LISTS_AUTO_UPDATE=false stops the scheduled downloads.';

/** Logged without what a configured URL may carry besides its host and path (a token, a password). */
function report(outcome: SourceOutcome, log: Log) {
  const url = outcome.url && withoutUrlSecrets(outcome.url);
  const failures = outcome.failures.map((f) => ({ url: withoutUrlSecrets(f.url), error: withoutUrlSecrets(f.error) }));
  const fields = { source: outcome.source, status: outcome.status, url };
  if (outcome.status === 'failed') {
    log.warn(
      { ...fields, failures },
      `${outcome.label}: the check failed; the active versions stay. ${failures.map((f) => f.error).join('; then ')}. ${OFFLINE_HINT}`,
    );
    return;
  }
  if (failures.length > 0) {
    log.warn({ ...fields, failures }, `${outcome.label}: served by ${url} after ${failures.map((f) => f.error).join('; ')}`);
  }
  const imported = outcome.lists.filter((o) => o.status === 'imported').map((o) => o.list);
  log.info({ ...fields, imported }, `${outcome.label}: ${imported.length > 0 ? `new versions of ${imported.join(', ')}` : outcome.status.replace('_', ' ')}`);
}
