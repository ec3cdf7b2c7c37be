/**
 * Adjudication as a service. Two faces: what every screening calls inside its own transaction
 * (the current rules, suppressions, opening a case), provided to other features as
 * `adjudication`; and what the API calls (rules, the queue, a case, dispositions), each in one
 * tenant transaction.
 */
import type { Static } from 'typebox';
import { type AuditContext, recordAudit } from '../../audit/audit.ts';
import { stampedCache } from '../../db/stamped-cache.ts';
import type { TenantTransaction, WithTenant } from '../../db/tenant.ts';
import { decodeCursor, encodeCursor } from '../../http/cursor.ts';
import { AppError } from '../../http/errors.ts';
import type { ServiceRegistry } from '../../http/services.ts';
import { actorName, applySuppressions, type CaseToOpen, openCases, reopenCase, type ScreeningForCase } from '../cases/case-opening.ts';
import { caseEvents, caseStatusOf, findCase, type QueueFilters, type QueuePosition, queuePage, queueTotals } from '../cases/case-store.ts';
import { holdPolicyFor } from '../cases/country-holds.ts';
import { appendRules, currentRules, rulesAt } from '../cases/rules-store.ts';
import { type AdjudicationRules, completeRules, ruleProblems, type RulesBody } from '../cases/rules.ts';
import { activeAmong, activeSuppressions, MAX_KEPT, suppressionsToKeep } from '../cases/suppression-store.ts';
import { addNote, applyDisposition, assignCase, type DispositionRequest } from './case-service.ts';
import { allowedDispositions } from './decision.ts';
import { presentCase, presentCaseDetail } from './present.ts';
import type { QueueQuery as QueueQuerySchema } from './schemas.ts';

declare module '../../http/services.ts' {
  interface Services {
    adjudication: AdjudicationService;
  }
}

type Registry = Pick<ServiceRegistry, 'get' | 'run'>;

/** The queue's filters and page as GET /adjudication/queue takes them (schemas.ts QueueQuery); the console asks the same way. */
export type QueueQuery = Static<typeof QueueQuerySchema>;

const isPosition = (value: unknown): value is { r: number; c: string; i: string } => {
  const v = value as { r?: unknown; c?: unknown; i?: unknown } | null;
  return typeof v === 'object' && v !== null && Number.isInteger(v.r) && typeof v.c === 'string' && !Number.isNaN(Date.parse(v.c)) && typeof v.i === 'string';
};

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

  const queue = (context: AuditContext, filters: QueueFilters, after: QueuePosition | undefined, limit: number) =>
    withTenant(context.actor, async (trx) => {
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

  const keptRules = stampedCache(currentRules);
  // Up to twenty organizations' worth of the most suppressions kept for one (~35 MiB).
  const keptSuppressions = stampedCache((trx) => suppressionsToKeep(trx, new Date()), {
    weigh: (kept) => 1 + (kept.complete ? kept.rows.length : 0),
    maxWeight: 20 * MAX_KEPT,
  });
  const suppressionsInForce = async (trx: TenantTransaction, fingerprints: string[], now: Date) =>
    activeAmong(await keptSuppressions(trx), fingerprints, now) ?? activeSuppressions(trx, fingerprints, now);

  return {
    // Inside another feature's transaction.
    /** The current rules; kept per organization while its settings stamp holds. */
    currentRules: keptRules,
    applySuppressions: <R extends ScreeningForCase>(trx: TenantTransaction, records: R[], rules: AdjudicationRules, now: Date) =>
      applySuppressions((fingerprints, at) => suppressionsInForce(trx, fingerprints, at), records, rules, now),
    /** Which country flags hold a subject with no name match, in a screening from `source`, under these rules. */
    countryHoldPolicy: holdPolicyFor,
    openCases,
    reopenCase: (trx: TenantTransaction, context: AuditContext, toOpen: CaseToOpen) => reopenCase(trx, context, registry, toOpen),
    caseStatus: caseStatusOf,
    /** What a case in this status may become (the state machine of decision.ts), for forms that offer only those. */
    allowedDispositions,
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
      const statusSince = setter && { at: setter.created_at.toISOString(), actor: setter.actor, ...(setter.action === 'disposition_applied' && setter.disposition && { disposition: setter.disposition }) };
      return { case_id: caseId, status, ...(statusSince && { status_since: statusSince }), history };
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
        recordAudit(trx, context, { action: 'adjudication_rules.updated', target: { type: 'adjudication_rules', id: String(written.version) }, details: { version: written.version, rules } });
        return written;
      });
    },

    queue,

    /** A page of the queue from the query's filters and cursor, with the cursor of the next page. */
    async queueFromQuery(context: AuditContext, q: QueueQuery, now = new Date()) {
      const after: QueuePosition | undefined = q.cursor
        ? (({ r, c, i }) => ({ rank: r, createdAt: new Date(c), id: i }))(decodeCursor(q.cursor, 'the queue', isPosition))
        : undefined;
      const filters: QueueFilters = {
        statuses: q.status ?? ['OPEN', 'ESCALATED'],
        ...(q.assignee !== undefined && { assignee: q.assignee }),
        ...(q.min_score !== undefined && { minScore: q.min_score }),
        ...(q.list !== undefined && { list: q.list.toUpperCase() }),
        ...(q.source !== undefined && { source: q.source }),
        ...(q.created_after !== undefined && { createdAfter: new Date(q.created_after) }),
        ...(q.created_before !== undefined && { createdBefore: new Date(q.created_before) }),
        ...(q.overdue !== undefined && { overdue: q.overdue }),
        now,
      };
      const page = await queue(context, filters, after, q.limit ?? 50);
      const next = page.has_more && page.last ? encodeCursor({ r: page.last.rank, c: page.last.createdAt.toISOString(), i: page.last.id }) : null;
      return { object: 'list' as const, data: page.data, has_more: page.has_more, next_cursor: next, totals: page.totals };
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
