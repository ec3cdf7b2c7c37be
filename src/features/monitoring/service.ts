/**
 * Continuous monitoring. When a list version lands that added or changed entries, every
 * organization gets a run for it (and an organization a run of its own for each version of one of
 * its watchlists that did, watchlist-runs.ts); a run re-screens the organization's watched subjects against
 * those entries only, in batches, each batch in one transaction that also moves the run's cursor.
 * So a process that dies mid-run leaves a run another process (or itself, restarted) resumes
 * after its lease runs out, without screening a batch twice or opening a case twice.
 *
 * A subject screened in full after the version was imported already met its entries, and is
 * skipped. A match on a new or changed entry opens a case, or reopens the subject's own; matches
 * on unchanged entries are not looked at again, so what was decided about them stays decided.
 *
 * After its subjects, a run for a version of a list the ownership rules read hands the version
 * to the follower the composition root gave it (src/lists/version-follower.ts: stored ownership
 * determinations re-evaluated), batch by batch under the same cursor, and counts the graphs it
 * examined and changed. A version that only removed entries of such a list gets a run for that
 * alone: removals change nothing for subjects, whose screenings only ever look for new matches.
 */
import { type AuditContext, appendAuditNow, recordAudit } from '../../audit/audit.ts';
import type { Database } from '../../db/database.ts';
import type { Actor } from '../../db/tenant.ts';
import { newId } from '../../ids.ts';
import { type ListCatalog, type ListSnapshot, snapshotInPlace } from '../../lists/catalog.ts';
import type { ListVersion } from '../../lists/list-store.ts';
import type { FollowBatch, VersionFollower } from '../../lists/version-follower.ts';
import { buildScreeningIndexInSlices } from '../../screening/screening-index-in-slices.ts';
import type { MonitoredSubject, MonitoringSource } from '../screenings/monitoring-source.ts';
import type { ScreeningService } from '../screenings/service.ts';
import { organizationsWithClaimableRuns, queueRunEverywhere } from './across-organizations.ts';
import { createDeltaCache } from './delta-cache.ts';
import { claimableRun, findRun, listRuns, type RunRow, updateRun } from './store.ts';
import { isWatchlistRun, queueWatchlistRun, type RunTarget, watchlistRunTarget } from './watchlist-runs.ts';

export type MonitoringOptions = { batchSize: number; leaseSeconds: number };
/**
 * What monitoring needs: the screening pipeline, and the features' subjects to watch, in the order
 * a run goes through them (its cursor names the source it is in, so the order is part of a run).
 */
export type MonitoringDeps = {
  screenings: Pick<ScreeningService, 'screenMany'>;
  sources: readonly MonitoringSource[];
  /** What follows a public list's version after the subjects (stored ownership determinations), counted as graphs. */
  determinations?: VersionFollower;
};

/** The cursor's source once everything a run does is done. */
const DONE = 'done';

const systemActor = (organizationId: string): Actor => ({ organizationId, kind: 'system', id: 'monitoring' });
const systemContext = (organizationId: string): AuditContext => ({ actor: { ...systemActor(organizationId), role: null }, requestId: null, sourceIp: null });

export function createMonitoringService(db: Database, lists: ListCatalog, { screenings, sources, determinations }: MonitoringDeps, options: MonitoringOptions) {
  /** The follower works a run for a version of a list it follows; a watchlist's version is no list's. */
  const followed = (run: Pick<RunRow, 'list' | 'list_version_id'>) =>
    determinations !== undefined && !isWatchlistRun(run) && determinations.lists.includes(run.list) ? determinations : undefined;

  /** The changed entries of a version, indexed, built once per process and version while its runs ask for it. */
  const deltas = createDeltaCache((version) => buildDelta(db, version));

  /**
   * Queues a run, in every organization, for each active version that added or changed entries,
   * and for one that only removed entries of a list whose versions the follower follows (a
   * removal may undo a determination's designation; subjects have nothing new to be screened against).
   */
  async function queueRuns(snapshot = lists.current()): Promise<number> {
    if (!snapshot) return 0;
    const versions = snapshot.versions.filter(
      (v) =>
        v.previousVersionId !== null &&
        (v.changes.added + v.changes.changed > 0 || (v.changes.removed > 0 && followed({ list: v.list, list_version_id: v.id }) !== undefined)),
    );
    if (versions.length === 0) return 0;
    // One statement per version, whatever the number of organizations (across-organizations.ts).
    const organizations = await db.operator.listOrganizations();
    let queued = 0;
    for (const version of versions) {
      const runs = organizations.map((o) => ({ organizationId: o.id, id: newId('mon') }));
      queued += await queueRunEverywhere(db.withTenant, runs, {
        list: version.list,
        list_version_id: version.id,
        previous_version_id: version.previousVersionId as string,
        changed_entries: version.changes.added + version.changes.changed,
        created_at: new Date(),
      });
    }
    return queued;
  }

  /**
   * Works the claimable runs of every organization that has one; `maxBatches` stops early (a
   * test's "crash"). One statement finds those organizations, so a poll with nothing to do costs
   * the same whatever the number of organizations; each is then claimed in its own transaction.
   */
  async function workRuns(limits: { maxBatches?: number } = {}): Promise<number> {
    deltas.sweep();
    let batches = 0;
    for (const organizationId of await organizationsWithClaimableRuns(db.withTenant, new Date())) {
      for (;;) {
        if (limits.maxBatches !== undefined && batches >= limits.maxBatches) return batches;
        const claimed = await claim(organizationId);
        if (!claimed) break;
        batches += await workRun(organizationId, claimed, limits.maxBatches === undefined ? undefined : limits.maxBatches - batches);
      }
    }
    return batches;
  }

  async function claim(organizationId: string): Promise<RunRow | undefined> {
    const context = systemContext(organizationId);
    return db.withTenant(context.actor, async (trx) => {
      const now = new Date();
      const run = await claimableRun(trx, now);
      if (!run) return undefined;
      const auditHash =
        run.audit_hash ??
        (await appendAuditNow(trx, context, {
          action: 'monitoring.run_started',
          target: { type: 'monitoring_run', id: run.id },
          details: { list: run.list, list_version_id: run.list_version_id, changed_entries: run.changed_entries },
        }));
      const claimed = { status: 'running' as const, lease_until: lease(now), audit_hash: auditHash, started_at: run.started_at ?? now };
      await updateRun(trx, run.id, claimed);
      return { ...run, ...claimed };
    });
  }

  const lease = (now: Date) => new Date(now.getTime() + options.leaseSeconds * 1000);

  /**
   * What a run screens against: a public list version's changed entities, or a watchlist version's
   * changed entries. The moment they appeared is read at once; a public version's entities are
   * read and indexed (on the service's thread, some thousands after a year of SDN changes) only
   * when `options` is first called: an organization that monitors nobody, or nobody screened
   * before the version landed, never needs them.
   */
  async function targetOf(organizationId: string, run: RunRow): Promise<LazyTarget> {
    if (isWatchlistRun(run)) {
      const target = await db.withTenant(systemActor(organizationId), (trx) => watchlistRunTarget(trx, run, lists.current()?.index.rarity()));
      return { importedAt: target.importedAt, options: async () => target.options };
    }
    const version = await db.lists.version(run.list_version_id);
    if (!version) throw new Error(`list version ${run.list_version_id} is missing`);
    return { importedAt: version.importedAt, options: async () => ({ snapshot: await deltas.of(version) }) };
  }

  /** Batches until the run is done (or `budget` batches are spent); answers the batches done. */
  async function workRun(organizationId: string, run: RunRow, budget?: number): Promise<number> {
    const context = systemContext(organizationId);
    let done = 0;
    try {
      const target = await targetOf(organizationId, run);
      const follower = followed(run);
      // Made outside the batches' transactions (they read the lists), when first needed.
      let followBatch: FollowBatch | undefined;
      let screenAgainst: RunTarget['options'] | undefined;
      for (;;) {
        if (budget !== undefined && done >= budget) return done;
        const finished = await db.withTenant(context.actor, async (trx): Promise<boolean | 'follow' | 'index'> => {
          const now = new Date();
          const current = await findRun(trx, run.id, { forUpdate: true });
          if (!current || current.status !== 'running') return true;
          const at = current.cursor.source === null ? 0 : sources.findIndex((s) => s.kind === current.cursor.source);
          // A version that added and changed nothing has nothing to screen subjects against.
          const source = run.changed_entries > 0 ? sources[at] : undefined;
          if (!source && follower && current.cursor.source !== DONE) {
            // An organization that holds nothing to follow: done, and the version's changes are not read for it.
            const notStarted = current.cursor.source !== follower.kind || current.cursor.after === null;
            if (!followBatch && notStarted && !(await follower.holdsAny(trx))) {
              await updateRun(trx, run.id, { cursor: { source: DONE, after: null }, lease_until: lease(now), error: null });
              return false;
            }
            if (!followBatch) return 'follow';
            const batch = await followBatch(trx, context, current.cursor.source === follower.kind ? current.cursor.after : null);
            const counts = {
              ...current.counts,
              graphs_examined: current.counts.graphs_examined + batch.examined,
              graphs_changed: current.counts.graphs_changed + batch.changed,
            };
            await updateRun(trx, run.id, {
              cursor: { source: batch.done ? DONE : follower.kind, after: batch.after },
              counts,
              lease_until: lease(now),
              error: null,
            });
            return false;
          }
          if (!source) {
            await updateRun(trx, run.id, { status: 'completed', finished_at: now, lease_until: null, error: null });
            recordAudit(trx, context, { action: 'monitoring.run_completed', target: { type: 'monitoring_run', id: run.id }, details: { ...current.counts } });
            return true;
          }
          const subjects = await source.subjects(trx, current.cursor.after, options.batchSize);
          if (subjects.length === 0) {
            await updateRun(trx, run.id, { cursor: { source: sources[at + 1]?.kind ?? follower?.kind ?? DONE, after: null }, lease_until: lease(now) });
            return false;
          }
          const counts = { ...current.counts, subjects: current.counts.subjects + subjects.length };
          // Screened in full since the version landed: its entries were already in that screening.
          const stale = subjects.filter((s: MonitoredSubject) => s.screenedAt < target.importedAt);
          if (stale.length > 0 && !screenAgainst) return 'index';
          const views =
            stale.length === 0
              ? []
              : await screenings.screenMany(
                  trx,
                  context,
                  stale.map((s) => s.input),
                  'rescreen',
                  {
                    now,
                    ...screenAgainst,
                    recordedBy: { auditHash: run.audit_hash as string },
                    reopen: (i) => stale[i]?.caseId ?? undefined,
                    onlyPotentialMatches: true,
                  },
                );
          counts.screened += stale.length;
          for (const [i, view] of views.entries()) {
            if (view.record.outcome !== 'potential_match') continue;
            const subject = stale[i] as MonitoredSubject;
            counts.potential_matches += 1;
            if (view.caseId && subject.caseId === view.caseId) counts.cases_reopened += 1;
            else if (view.caseId) counts.cases_opened += 1;
            await source.recordRescreen(trx, context, subject.id, { screeningId: view.record.id, caseId: view.caseId, outcome: view.record.outcome });
          }
          await updateRun(trx, run.id, {
            cursor: { source: source.kind, after: (subjects.at(-1) as MonitoredSubject).id },
            counts,
            lease_until: lease(now),
            error: null,
          });
          return false;
        });
        if (finished === 'follow' && follower) {
          followBatch = await follower.follow({
            list: run.list,
            versionId: run.list_version_id,
            previousVersionId: run.previous_version_id,
            importedAt: target.importedAt,
          });
          continue;
        }
        if (finished === 'index') {
          screenAgainst = await target.options();
          continue;
        }
        done += 1;
        if (finished) return done;
      }
    } catch (error) {
      // The run stays running; its lease lapses in a minute and it is tried again from its cursor.
      await db
        .withTenant(context.actor, (trx) =>
          updateRun(trx, run.id, { error: String((error as Error).message).slice(0, 500), lease_until: new Date(Date.now() + 60_000) }),
        )
        .catch(() => undefined);
      throw error;
    }
  }

  return {
    queueRuns,
    /** Queues a run for a watchlist version, in the transaction that writes it (the watchlist change hook). */
    queueWatchlistRun,
    workRuns,
    list: (context: AuditContext, beforeId: string | undefined, limit: number) => db.withTenant(context.actor, (trx) => listRuns(trx, beforeId, limit)),
    get: (context: AuditContext, id: string) => db.withTenant(context.actor, (trx) => findRun(trx, id)),
  };
}

export type MonitoringService = ReturnType<typeof createMonitoringService>;

type LazyTarget = { importedAt: Date; options: () => Promise<RunTarget['options']> };

async function buildDelta(db: Database, version: ListVersion): Promise<ListSnapshot> {
  const diff = await db.lists.changesOf(version.id);
  const entities = (await db.lists.entriesOf(version.id, [...diff.added, ...diff.changed])).sort((a, b) =>
    a.entryId < b.entryId ? -1 : a.entryId > b.entryId ? 1 : 0,
  );
  const started = performance.now();
  // In slices: the first version of a list is all new, and indexing it at once would stall the service's requests.
  const index = await buildScreeningIndexInSlices(entities);
  return snapshotInPlace([version], entities, index, Math.round(performance.now() - started));
}
