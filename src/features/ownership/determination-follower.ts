/**
 * Stored determinations follow the lists: the monitoring run for a new version of a list the
 * ownership rules read works this follower after its subjects, batch by batch in its own
 * transactions, and counts what it looked at and what changed.
 *
 * Why a follower the monitoring run calls, rather than a job of the ownership feature's own: a
 * run per organization and version already exists, is claimed under a lease, resumes from a
 * cursor that commits with each batch, and is what an organization reads to see what a list
 * change did (GET /monitoring/runs: graphs examined and changed beside subjects screened). A
 * second queue would repeat all of it. Monitoring and ownership may not import each other
 * (test/architecture/layers.ts): the follower's type is in src/lists/version-follower.ts, and
 * the composition root hands this one to monitoring.
 *
 * What the version changed is read, and its changed entries indexed, before any transaction (once
 * per version and process, and only for an organization that holds a determination); the batches
 * then re-evaluate against one snapshot of the lists, taken then, that holds the run's version or
 * a later one of the list (a process that has not loaded the version yet fails, and the run is
 * tried again when its lease runs out): no re-evaluation mixes versions.
 */

import type { TenantTransaction } from '../../db/tenant.ts';
import type { ListCatalog, ListSnapshot } from '../../lists/catalog.ts';
import type { FreshnessReport } from '../../lists/freshness.ts';
import type { ListStore } from '../../lists/list-store.ts';
import type { FollowedVersion, VersionFollower } from '../../lists/version-follower.ts';
import type { CaseStatusHook } from '../cases/status-hook.ts';
import type { ScreeningTerms } from './answer-check.ts';
import { SCREENED_LISTS } from './name-screening.ts';
import { anyKeyedCheck } from './party-key-store.ts';
import { reevaluateCheck } from './reevaluate-check.ts';
import { touchedChecks, type VersionChanges, versionChanges } from './touched-checks.ts';

export type DeterminationFollowerDeps = {
  lists: ListCatalog;
  listStore: Pick<ListStore, 'version' | 'changesOf' | 'entriesOf'>;
  /** The organization's terms, read in the run's transaction. */
  screeningTerms: (trx: TenantTransaction) => Promise<ScreeningTerms>;
  freshness: (now: Date) => FreshnessReport;
  /** What follows a case's status (visitor sessions), run when a re-evaluation reopens a determination's case. */
  caseStatusChanged: Pick<CaseStatusHook, 'run'>;
};

/** Determinations per batch: each screens its graph's names again (about 2,000 a second), so a batch holds its transaction well under a second for graphs of a few dozen parties. */
const PER_BATCH = 20;
/** Versions and runs remembered: a process works a handful at a time. */
const REMEMBERED = 32;

export function createDeterminationFollower(deps: DeterminationFollowerDeps): VersionFollower {
  const changesOfVersion = new Map<string, Promise<VersionChanges>>();
  /** Per organization, version and threshold: the touched determinations, found once for the whole run. */
  const touchedOfRun = new Map<string, Promise<string[]>>();

  return {
    kind: 'ownership_determination',
    lists: SCREENED_LISTS,
    holdsAny: anyKeyedCheck,
    async follow(version) {
      const snapshot = holding(deps.lists.current(), version);
      const changes = await remembered(changesOfVersion, version.versionId, async () => {
        const listVersion = await deps.listStore.version(version.versionId);
        if (!listVersion) throw new Error(`list version ${version.versionId} is missing`);
        return versionChanges(deps.listStore, listVersion, snapshot.index.rarity());
      });
      return async (trx, context, after) => {
        const now = new Date();
        const terms = await deps.screeningTerms(trx);
        const freshness = deps.freshness(now);
        const runKey = `${context.actor.organizationId}\u0000${version.versionId}\u0000${terms.matchThreshold}`;
        const touched = await remembered(touchedOfRun, runKey, () => touchedChecks(trx, changes, { threshold: terms.matchThreshold, freshness, now }));
        const start = after === null ? 0 : touched.findIndex((id) => id > after);
        const batch = start < 0 ? [] : touched.slice(start, start + PER_BATCH);
        const done = start < 0 || start + PER_BATCH >= touched.length;
        let examined = 0;
        let changed = 0;
        for (const id of batch) {
          const outcome = await reevaluateCheck(trx, context, id, { snapshot, freshness, terms, now, version, statusChanged: deps.caseStatusChanged });
          if (outcome !== 'skipped') examined += 1;
          if (outcome === 'changed') changed += 1;
        }
        if (done) touchedOfRun.delete(runKey);
        return { after: batch.at(-1) ?? after, done, examined, changed };
      };
    },
  };
}

/** The loaded lists, if they hold this version of the list or a later one. */
function holding(snapshot: ListSnapshot | undefined, version: FollowedVersion): ListSnapshot {
  const loaded = snapshot?.versions.find((v) => v.list === version.list);
  if (!snapshot || !loaded || loaded.importedAt < version.importedAt)
    throw new Error(`${version.list} version ${version.versionId} is not loaded in this process yet; the determinations are re-evaluated when it is`);
  return snapshot;
}

/** A value worked out once and shared while it is remembered; a failure is forgotten, to be tried again. */
function remembered<T>(cache: Map<string, Promise<T>>, key: string, work: () => Promise<T>): Promise<T> {
  let value = cache.get(key);
  if (!value) {
    value = work();
    value.catch(() => cache.delete(key));
    cache.set(key, value);
    if (cache.size > REMEMBERED) cache.delete(cache.keys().next().value as string);
  }
  return value;
}
