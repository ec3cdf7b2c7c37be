/**
 * A workforce sync: the payload compared with what is stored, then written in batches, each in
 * its own short transaction (the embedded database serves everyone else between them). New and
 * re-activated profiles, and those whose screened facts changed, are screened under the sync's
 * one audit event; the same payload twice changes nothing the second time.
 */
import { type AuditContext, appendAuditNow, recordAudit } from '../../audit/audit.ts';
import type { WithTenant } from '../../db/tenant.ts';
import { recordEvent } from '../../events/outbox.ts';
import { newId } from '../../ids.ts';
import type { ScreeningService } from '../screenings/service.ts';
import { type CleanProfile, screeningInputOf } from './profile-input.ts';
import { absentActiveIds, refuseLargeShrink } from './shrink-guard.ts';
import {
  deactivateProfiles,
  finishSync,
  insertProfiles,
  insertSync,
  type KnownProfile,
  knownProfiles,
  type ProfileWrite,
  type SyncCounts,
  type SyncRow,
  updateProfile,
} from './store.ts';

/** Profiles per transaction. */
const BATCH = 500;

type Planned = { clean: CleanProfile; known: KnownProfile | undefined; screen: boolean };

/** A full sync's shrink guard (shrink-guard.ts): its limit, and whether the caller lifted it. */
export type ShrinkOptions = { limitPercent: number; allowShrink: boolean };

export async function runSync(
  withTenant: WithTenant,
  screenings: Pick<ScreeningService, 'loadedLists' | 'screenMany'>,
  context: AuditContext,
  mode: 'upsert' | 'full',
  profiles: CleanProfile[],
  shrink: ShrinkOptions,
): Promise<SyncRow> {
  screenings.loadedLists(); // 503 lists_unavailable before anything is written, never a false clear
  const startedAt = new Date();
  const counts: SyncCounts = { created: 0, updated: 0, unchanged: 0, deactivated: 0, screened: 0, potential_matches: 0, cases_opened: 0 };
  const sync: SyncRow = {
    id: newId('wfs', startedAt.getTime()),
    mode,
    status: 'running',
    counts,
    actor: `${context.actor.kind}:${context.actor.id}`,
    request_id: context.requestId,
    started_at: startedAt,
    finished_at: null,
  };

  // One audit event records the sync and every screening it makes. A refused shrink throws before either is written.
  const { known, absent, auditHash } = await withTenant(context.actor, async (trx) => {
    const known = await knownProfiles(trx);
    const absent =
      mode === 'full'
        ? absentActiveIds(
            known,
            profiles.map((p) => p.externalId),
          )
        : [];
    if (mode === 'full') {
      const active = [...known.values()].filter((k) => k.status === 'active').length;
      refuseLargeShrink({
        active,
        inRequest: profiles.length,
        deactivating: absent.length,
        limitPercent: shrink.limitPercent,
        allowShrink: shrink.allowShrink,
      });
    }
    await insertSync(trx, context.actor.organizationId, sync);
    const auditHash = await appendAuditNow(trx, context, {
      action: 'workforce.sync_started',
      target: { type: 'workforce_sync', id: sync.id },
      details: { mode, profiles: profiles.length },
    });
    return { known, absent, auditHash };
  });

  try {
    const work: Planned[] = [];
    for (const clean of profiles) {
      const before = known.get(clean.externalId);
      // A deactivation (full mode) changes the status alone, so the status is compared besides the hash.
      if (before?.profile_sha256 === clean.profileSha256 && before.status === clean.status) counts.unchanged += 1;
      else {
        const reactivated = before?.status === 'inactive' && clean.status === 'active';
        const screen = clean.status === 'active' && (!before || reactivated || before.screened_sha256 !== clean.screenedSha256);
        work.push({ clean, known: before, screen });
      }
    }
    for (let at = 0; at < work.length; at += BATCH) {
      await withTenant(context.actor, (trx) => writeBatch(trx, work.slice(at, at + BATCH)));
    }
    for (let at = 0; at < absent.length; at += BATCH) {
      await withTenant(context.actor, (trx) => deactivateProfiles(trx, absent.slice(at, at + BATCH), sync.id, new Date()));
    }
    counts.deactivated = absent.length;
    const finishedAt = new Date();
    await withTenant(context.actor, async (trx) => {
      await finishSync(trx, sync.id, 'completed', counts, finishedAt);
      recordAudit(trx, context, { action: 'workforce.sync_completed', target: { type: 'workforce_sync', id: sync.id }, details: { mode, ...counts } });
      recordEvent(trx, context.actor.organizationId, {
        type: 'workforce.sync_completed',
        data: { sync_id: sync.id, mode, ...counts },
        ...(context.requestId && { requestId: context.requestId }),
      });
    });
    return { ...sync, status: 'completed', finished_at: finishedAt };
  } catch (error) {
    // What was written stays (a re-sync finds it unchanged); the sync says it did not finish.
    await withTenant(context.actor, (trx) => finishSync(trx, sync.id, 'failed', counts, new Date())).catch(() => undefined);
    throw error;
  }

  async function writeBatch(trx: Parameters<Parameters<WithTenant>[1]>[0], batch: Planned[]) {
    const now = new Date();
    const toScreen = batch.filter((p) => p.screen);
    const views = await screenings.screenMany(
      trx,
      context,
      toScreen.map((p) => screeningInputOf(p.clean.externalId, p.clean.profile)),
      'workforce',
      { now, recordedBy: { auditHash } },
    );
    const screeningOf = new Map(toScreen.map((p, i) => [p.clean.externalId, views[i]]));
    const inserts: ProfileWrite[] = [];
    for (const { clean, known: before } of batch) {
      const view = screeningOf.get(clean.externalId);
      const write: ProfileWrite = {
        id: before?.id ?? newId('wfp', now.getTime()),
        external_id: clean.externalId,
        status: clean.status,
        profile: clean.profile,
        screened_sha256: clean.screenedSha256,
        profile_sha256: clean.profileSha256,
        ...(view && { screening: { id: view.record.id, outcome: view.record.outcome, case_id: view.caseId } }),
        last_sync_id: sync.id,
        at: now,
      };
      if (view) {
        counts.screened += 1;
        if (view.record.outcome === 'potential_match') counts.potential_matches += 1;
        if (view.caseId) counts.cases_opened += 1;
      }
      if (before) {
        counts.updated += 1;
        await updateProfile(trx, write);
      } else {
        counts.created += 1;
        inserts.push(write);
      }
    }
    await insertProfiles(trx, context.actor.organizationId, inserts);
  }
}
