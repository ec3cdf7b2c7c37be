/**
 * Visitor sessions as a service: check-in screens the visitor (or stands on a fresh prescreen of
 * the same person) and opens the session in the screening's own transaction; the session then
 * follows its case's status (`followCase`, subscribed by the composition root to the hook a
 * disposition or a reopening runs before it commits) and the desk's updates, each move checked
 * against the state machine, audited and announced as an event.
 */
import { type AuditContext, recordAudit } from '../../audit/audit.ts';
import type { TenantTransaction, WithTenant } from '../../db/tenant.ts';
import { recordEvent } from '../../events/outbox.ts';
import { AppError } from '../../http/errors.ts';
import { METADATA_MAX_BYTES } from '../../http/input-checker.ts';
import { newId } from '../../ids.ts';
import { type ListCatalog, requireLists } from '../../lists/catalog.ts';
import type { CaseService } from '../cases/service.ts';
import type { CaseStatusChange } from '../cases/status-hook.ts';
import { doorAction } from '../cases/watchlist-actions.ts';
import type { MonitoringSource } from '../screenings/monitoring-source.ts';
import type { ScreeningService, ScreeningView } from '../screenings/service.ts';
import { type Checkin, prescreenReuse, type ReuseVerdict, screeningInputOf } from './checkin-input.ts';
import { doorHoldsMore } from './door-holds.ts';
import { assertMove, EVENT_ON_ARRIVAL, onSiteAfter, type SessionStatus, statusAtDoor, statusForCase } from './session-states.ts';
import {
  attachCase,
  findSession,
  type HistoryEntry,
  insertSession,
  listSessions,
  openSessionsOfCase,
  type SessionChange,
  type SessionFilters,
  type SessionPosition,
  type SessionRow,
  updateSession,
  watchedSessions,
} from './session-store.ts';

/** What sessions need: screening at the door (or a prescreen to stand on), and of cases the rules' country holds and a case's status. */
export type SessionDeps = {
  screenings: Pick<ScreeningService, 'find' | 'screenIn' | 'versionsNow'>;
  cases: Pick<CaseService, 'currentRules' | 'countryHoldPolicy' | 'caseStatus'>;
};
export type SessionUpdate = { status?: SessionStatus; metadata?: Record<string, unknown | null>; note?: string };
export type CheckinResult = { session: SessionRow; reuse: (ReuseVerdict & { prescreen_id: string }) | null };

const actorName = (context: AuditContext) => `${context.actor.kind}:${context.actor.id}`;

export function createSessionService(
  withTenant: WithTenant,
  lists: ListCatalog,
  { screenings, cases }: SessionDeps,
  options: { prescreenFreshnessHours: number },
) {
  /** Whether the rules hold at the door a country flag this prescreen was not held for (door-holds.ts). */
  async function doorHoldsMoreThan(trx: TenantTransaction, prescreen: ScreeningView): Promise<boolean> {
    const { rules } = await cases.currentRules(trx);
    return doorHoldsMore(prescreen.record, cases.countryHoldPolicy(rules, 'checkin'));
  }

  /** Moves a locked session to `to`: its row, history, event and audit record, in the caller's transaction. */
  async function move(
    trx: TenantTransaction,
    context: AuditContext,
    session: SessionRow,
    to: SessionStatus,
    now: Date,
    extra: { note?: string; metadata?: Record<string, unknown> } = {},
  ) {
    const entry: HistoryEntry = {
      at: now.toISOString(),
      actor: actorName(context),
      from: session.status,
      to,
      ...(extra.note && { note: extra.note }),
      ...(session.case_id && { case_id: session.case_id }),
    };
    const change: SessionChange = {
      status: to,
      on_site: onSiteAfter(to, session.on_site),
      ...(to === 'checked_in' && !session.checked_in_at && { checked_in_at: now }),
      ...(to === 'checked_out' && { checked_out_at: now }),
      ...(extra.metadata && { metadata: extra.metadata }),
      entry,
      updated_at: now,
    };
    await updateSession(trx, session.id, change);
    await announce(trx, context, session.id, to, session.site);
    return { ...session, ...change, history: [...session.history, entry] } as SessionRow;
  }

  async function announce(trx: TenantTransaction, context: AuditContext, sessionId: string, status: SessionStatus, site: string) {
    const type = EVENT_ON_ARRIVAL[status];
    if (!type) return;
    recordEvent(trx, context.actor.organizationId, {
      type,
      data: { session_id: sessionId, status, site },
      ...(context.requestId && { requestId: context.requestId }),
    });
  }

  /** A case's status change moves the sessions waiting on (or following) the case, before the change commits. */
  async function followCase(trx: TenantTransaction, context: AuditContext, change: CaseStatusChange) {
    for (const session of await openSessionsOfCase(trx, change.caseId)) {
      // A case reopened (or denied: a visitor let in while a watchlist match was reviewed) while its visitor is inside
      // escalates the visit rather than sending them back to the door.
      const inside = session.status === 'checked_in' && (change.to === 'OPEN' || change.to === 'DENIED');
      const target = inside ? 'escalated' : statusForCase(change.to);
      if (session.status === target) continue;
      try {
        assertMove(session.status, target, change.to);
      } catch {
        continue; // e.g. a visitor already checked in whose case is cleared again: nothing to do
      }
      await move(trx, context, session, target, new Date(), { note: change.disposition ? `case ${change.to}` : `case reopened (${change.to}) by a re-screen` });
      recordAudit(trx, context, {
        action: 'visitor_session.status_changed',
        target: { type: 'visitor_session', id: session.id },
        details: { from: session.status, to: target, case_id: change.caseId, disposition: change.disposition },
      });
    }
  }

  /** Visitors not yet gone, as continuous monitoring watches them. */
  const monitoringSource: MonitoringSource = {
    kind: 'visitor_session',
    async subjects(trx, afterId, limit) {
      const sessions = await watchedSessions(trx, afterId, limit);
      return sessions.map((s) => ({ id: s.id, input: screeningInputOf(s.visitor), caseId: s.case_id, screenedAt: s.created_at }));
    },
    async recordRescreen(trx, context, sessionId, finding) {
      if (!finding.caseId) return;
      const session = await findSession(trx, sessionId, { forUpdate: true });
      if (!session || session.case_id === finding.caseId) return; // a reopened case moves its sessions itself (followCase)
      await attachCase(trx, sessionId, finding.caseId);
      const attached = { ...session, case_id: finding.caseId };
      // A new match on a visitor inside escalates the visit.
      if (session.status === 'checked_in') await move(trx, context, attached, 'escalated', new Date(), { note: 'a list change matched this visitor' });
    },
  };

  return {
    followCase,
    monitoringSource,

    async checkIn(context: AuditContext, checkin: Checkin): Promise<CheckinResult> {
      const now = new Date();
      requireLists(lists);
      return withTenant(context.actor, async (trx) => {
        let reuse: CheckinResult['reuse'] = null;
        let view: ScreeningView | undefined;
        if (checkin.prescreenId) {
          const prescreen = await screenings.find(trx, checkin.prescreenId);
          // The lists and the organization's watchlists a screening now would consult: a watchlist changed since the prescreen screens again.
          const currentVersions = await screenings.versionsNow(trx);
          let verdict = prescreenReuse(prescreen?.record, checkin.visitor, currentVersions, now, options.prescreenFreshnessHours);
          if (verdict.reused && prescreen && (await doorHoldsMoreThan(trx, prescreen))) verdict = { reused: false, reason: 'country_hold' };
          reuse = { prescreen_id: checkin.prescreenId, ...verdict };
          if (verdict.reused) view = prescreen;
        }
        view ??= await screenings.screenIn(trx, context, screeningInputOf(checkin.visitor), 'checkin', now);
        const status = statusAtDoor(view.caseStatus, doorAction(view.record, (await cases.currentRules(trx)).rules));
        const session: SessionRow = {
          id: newId('ses', now.getTime()),
          status,
          on_site: onSiteAfter(status, false),
          site: checkin.site,
          visitor: checkin.visitor,
          host: checkin.host,
          purpose: checkin.purpose,
          badge_number: checkin.badgeNumber,
          escort_required: checkin.escortRequired,
          expected_departure_at: checkin.expectedDepartureAt,
          metadata: checkin.metadata,
          screening_id: view.record.id,
          prescreen_reused: reuse?.reused === true,
          case_id: view.caseId,
          history: [{ at: now.toISOString(), actor: actorName(context), from: null, to: status, ...(view.caseId && { case_id: view.caseId }) }],
          checked_in_at: status === 'checked_in' ? now : null,
          checked_out_at: null,
          created_at: now,
          updated_at: now,
        };
        await insertSession(trx, context.actor.organizationId, session);
        await announce(trx, context, session.id, status, session.site);
        recordAudit(trx, context, {
          action: 'visitor_session.created',
          target: { type: 'visitor_session', id: session.id },
          details: { status, site: session.site, screening_id: session.screening_id, case_id: session.case_id, prescreen_reused: session.prescreen_reused },
        });
        return { session, reuse };
      });
    },

    async update(context: AuditContext, id: string, update: SessionUpdate): Promise<SessionRow> {
      const now = new Date();
      return withTenant(context.actor, async (trx) => {
        let session = (await findSession(trx, id, { forUpdate: true })) ?? notFound(id);
        const metadata = update.metadata && mergedMetadata(session.metadata, update.metadata);
        const from = session.status;
        if (update.status !== undefined && update.status !== from) {
          const caseStatus = session.case_id ? await cases.caseStatus(trx, session.case_id) : null;
          assertMove(from, update.status, caseStatus);
          session = await move(trx, context, session, update.status, now, { ...(update.note && { note: update.note }), ...(metadata && { metadata }) });
        } else if (metadata || update.note) {
          const entry: HistoryEntry | undefined = update.note
            ? { at: now.toISOString(), actor: actorName(context), from, to: from, note: update.note }
            : undefined;
          await updateSession(trx, id, { ...(metadata && { metadata }), ...(entry && { entry }), updated_at: now });
          session = { ...session, ...(metadata && { metadata }), history: entry ? [...session.history, entry] : session.history, updated_at: now };
        }
        recordAudit(trx, context, {
          action: 'visitor_session.updated',
          target: { type: 'visitor_session', id },
          details: { from, to: session.status, metadata_keys: update.metadata ? Object.keys(update.metadata) : [], note: Boolean(update.note) },
        });
        return session;
      });
    },

    get: (context: AuditContext, id: string) => withTenant(context.actor, async (trx) => (await findSession(trx, id)) ?? notFound(id)),

    list: (context: AuditContext, filters: SessionFilters, after: SessionPosition | undefined, limit: number) =>
      withTenant(context.actor, (trx) => listSessions(trx, filters, after, limit)),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;

/** The stored metadata with the update's keys set, and those it sets to null removed; refused past its size. */
function mergedMetadata(stored: Record<string, unknown>, update: Record<string, unknown | null>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored };
  for (const [key, value] of Object.entries(update)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  const keys = Object.keys(merged).length;
  const bytes = Buffer.byteLength(JSON.stringify(merged));
  if (keys > 20 || bytes > METADATA_MAX_BYTES) {
    throw new AppError('validation_failed', `The merged metadata would hold ${keys} keys in ${bytes} bytes; at most 20 keys and ${METADATA_MAX_BYTES} bytes.`, {
      errors: [{ pointer: '/metadata', detail: `merged with what is stored: ${keys} keys, ${bytes} bytes; at most 20 and ${METADATA_MAX_BYTES}`, in: 'body' }],
    });
  }
  return merged;
}

function notFound(id: string): never {
  throw new AppError('not_found', `There is no visitor session ${id} in your organization.`);
}
