/**
 * Adjudication as a service. Two faces: what every screening calls inside its own transaction
 * (the current rules, suppressions, opening a case), provided to other features as
 * `adjudication`; and what the API calls (rules, the queue, a case, dispositions), each in one
 * tenant transaction.
 */
import { type AuditContext, recordAudit } from '../../audit/audit.ts';
import type { TenantTransaction, WithTenant } from '../../db/tenant.ts';
import { AppError } from '../../http/errors.ts';
import type { ServiceRegistry } from '../../http/services.ts';
import { actorName, applySuppressions, type CaseToOpen, openCases, reopenCase } from './case-opening.ts';
import { addNote, applyDisposition, assignCase, type DispositionRequest } from './case-service.ts';
import { caseEvents, caseStatusOf, findCase, type QueueFilters, type QueuePosition, queuePage, queueTotals } from './case-store.ts';
import { presentCase, presentCaseDetail } from './present.ts';
import { appendRules, currentRules, rulesAt } from './rules-store.ts';
import { completeRules, ruleProblems, type RulesBody } from './rules.ts';

declare module '../../http/services.ts' {
  interface Services {
    adjudication: AdjudicationService;
  }
}

type Registry = Pick<ServiceRegistry, 'get' | 'run'>;

/** History actions in the evidence PDF's words (its action column is narrow). */
const ACTION_WORDS: Record<string, string> = {
  opened: 'opened',
  decision_pending: 'awaits 2nd reviewer',
  disposition_applied: 'decided',
  assigned: 'assigned',
  note: 'note',
  reopened: 'reopened',
};

export function createAdjudicationService(withTenant: WithTenant, registry: Registry, loadedLists: () => string[]) {
  const caseDetail = async (trx: TenantTransaction, id: string, now: Date) => {
    const row = await findCase(trx, id);
    if (!row) throw new AppError('not_found', `There is no case ${id} in your organization.`);
    const [history, view, rules] = [await caseEvents(trx, id), await registry.get('screenings').find(trx, row.screening_id), await rulesAt(trx, row.rules_version)];
    const { presentScreening } = registry.get('screenings');
    return presentCaseDetail(row, now, { history, screening: view ? presentScreening(view) : null, rules });
  };

  return {
    // Inside another feature's transaction.
    currentRules,
    applySuppressions,
    openCases,
    reopenCase: (trx: TenantTransaction, context: AuditContext, toOpen: CaseToOpen) => reopenCase(trx, context, registry, toOpen),
    caseStatus: caseStatusOf,
    async caseHistory(trx: TenantTransaction, caseId: string) {
      const status = (await caseStatusOf(trx, caseId)) ?? 'unknown';
      const history = (await caseEvents(trx, caseId)).map((e) => ({
        at: e.created_at.toISOString(),
        actor: e.actor,
        action: ACTION_WORDS[e.action] ?? e.action,
        ...(e.disposition && { disposition: e.disposition }),
        ...(e.reason && { reason: e.reason }),
      }));
      return { case_id: caseId, status, history };
    },

    // The API.
    getRules: (context: AuditContext) => withTenant(context.actor, (trx) => currentRules(trx)),

    putRules(context: AuditContext, body: RulesBody) {
      const rules = completeRules(body);
      const problems = ruleProblems(rules, loadedLists());
      if (problems.length > 0) {
        throw new AppError('validation_failed', `The rules have ${problems.length === 1 ? 'a problem' : `${problems.length} problems`}: ${problems.map((p) => `${p.pointer} ${p.detail}`).join('; ')}.`, {
          errors: problems.map((p) => ({ ...p, in: 'body' as const })),
        });
      }
      return withTenant(context.actor, async (trx) => {
        const written = await appendRules(trx, context.actor.organizationId, rules, { actor: actorName(context), requestId: context.requestId });
        await recordAudit(trx, context, { action: 'adjudication_rules.updated', target: { type: 'adjudication_rules', id: String(written.version) }, details: { version: written.version, rules } });
        return written;
      });
    },

    queue(context: AuditContext, filters: QueueFilters, after: QueuePosition | undefined, limit: number) {
      return withTenant(context.actor, async (trx) => {
        const rows = await queuePage(trx, filters, after, limit + 1);
        const page = rows.slice(0, limit);
        const summaries = new Map((await registry.get('screenings').summaries(trx, page.map((r) => r.screening_id))).map((s) => [s.id, s]));
        const totals = await queueTotals(trx, filters);
        const data = page.map((row) => {
          const summary = summaries.get(row.screening_id);
          return { ...presentCase(row, filters.now), subject: summary?.input ?? null, top_match: summary?.top_match ?? null };
        });
        const last = page.at(-1);
        return { data, has_more: rows.length > limit, last: last && { rank: last.priority_rank, createdAt: last.created_at, id: last.id }, totals };
      });
    },

    getCase: (context: AuditContext, id: string, now = new Date()) => withTenant(context.actor, (trx) => caseDetail(trx, id, now)),

    dispose(context: AuditContext, id: string, request: DispositionRequest, now = new Date()) {
      return withTenant(context.actor, async (trx) => {
        const { outcome } = await applyDisposition(trx, context, registry, id, request, now);
        return { outcome, detail: await caseDetail(trx, id, now) };
      });
    },

    assign: (context: AuditContext, id: string, assignee: string | null, now = new Date()) =>
      withTenant(context.actor, async (trx) => {
        await assignCase(trx, context, id, assignee, now);
        return caseDetail(trx, id, now);
      }),

    note: (context: AuditContext, id: string, text: string, now = new Date()) =>
      withTenant(context.actor, async (trx) => {
        await addNote(trx, context, id, text, now);
        return caseDetail(trx, id, now);
      }),
  };
}

export type AdjudicationService = ReturnType<typeof createAdjudicationService>;
