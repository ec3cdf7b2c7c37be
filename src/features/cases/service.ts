/**
 * Cases as a service, inside the caller's transaction: what every screening asks (the current
 * rules, the suppressions in force, which country flags hold, opening or reopening a case) and
 * what the features above read of a case (its status, its history for the evidence PDF).
 * Rules and suppressions are kept per organization while its settings stamp holds.
 */
import type { AuditContext } from '../../audit/audit.ts';
import { stampedCache } from '../../db/stamped-cache.ts';
import type { TenantTransaction } from '../../db/tenant.ts';
import { applySuppressions, type CaseToOpen, openCases, reopenCase, type ScreeningForCase } from './case-opening.ts';
import { caseEvents, caseStatusOf } from './case-store.ts';
import { holdPolicyFor } from './country-holds.ts';
import type { AdjudicationRules } from './rules.ts';
import { currentRules } from './rules-store.ts';
import type { CaseStatusHook } from './status-hook.ts';
import { activeAmong, activeSuppressions, MAX_KEPT, suppressionsToKeep } from './suppression-store.ts';

/** What cases need: the hook a reopened case runs, so that what follows it (visitor sessions) moves in the same transaction. */
export type CaseServiceDeps = { statusChanged: Pick<CaseStatusHook, 'run'> };

/** History actions in the evidence PDF's words (its action column is narrow). */
const ACTION_WORDS: Record<string, string> = {
  opened: 'opened',
  decision_pending: 'awaits 2nd reviewer',
  disposition_applied: 'decided',
  assigned: 'assigned',
  note: 'note',
  reopened: 'reopened',
};

export function createCaseService({ statusChanged }: CaseServiceDeps) {
  const keptRules = stampedCache(currentRules);
  // Up to twenty organizations' worth of the most suppressions kept for one (~35 MiB).
  const keptSuppressions = stampedCache((trx) => suppressionsToKeep(trx, new Date()), {
    weigh: (kept) => 1 + (kept.complete ? kept.rows.length : 0),
    maxWeight: 20 * MAX_KEPT,
  });
  const suppressionsInForce = async (trx: TenantTransaction, fingerprints: string[], now: Date) =>
    activeAmong(await keptSuppressions(trx), fingerprints, now) ?? activeSuppressions(trx, fingerprints, now);

  return {
    /** The current rules; kept per organization while its settings stamp holds. */
    currentRules: keptRules,
    applySuppressions: <R extends ScreeningForCase>(trx: TenantTransaction, records: R[], rules: AdjudicationRules, now: Date) =>
      applySuppressions((fingerprints, at) => suppressionsInForce(trx, fingerprints, at), records, rules, now),
    /** Which country flags hold a subject with no name match, in a screening from `source`, under these rules. */
    countryHoldPolicy: holdPolicyFor,
    openCases,
    reopenCase: (trx: TenantTransaction, context: AuditContext, toOpen: CaseToOpen) => reopenCase(trx, context, statusChanged, toOpen),
    caseStatus: caseStatusOf,
    async caseHistory(trx: TenantTransaction, caseId: string) {
      const status = (await caseStatusOf(trx, caseId)) ?? 'unknown';
      const events = await caseEvents(trx, caseId);
      const history = events.map((e) => ({
        at: e.created_at.toISOString(),
        actor: e.actor,
        action: ACTION_WORDS[e.action] ?? e.action,
        ...(e.disposition && { disposition: e.disposition }),
        ...(e.reason && { reason: e.reason }),
      }));
      // The event that gave the case its current status: its opening, a decision or a reopening (a pending decision changes none).
      const setter = events.findLast((e) => e.to_status !== e.from_status);
      const statusSince = setter && {
        at: setter.created_at.toISOString(),
        actor: setter.actor,
        ...(setter.action === 'disposition_applied' && setter.disposition && { disposition: setter.disposition }),
      };
      return { case_id: caseId, status, ...(statusSince && { status_since: statusSince }), history };
    },
  };
}

export type CaseService = ReturnType<typeof createCaseService>;
