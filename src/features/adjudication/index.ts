/**
 * Adjudication endpoints (Enterprise): the organization's rules, the queue of open cases, one
 * case, and the decisions on it. Cases open themselves: every screening with a potential match
 * no suppression covers opens one, in the screening's own transaction.
 */
import { auditContextOf } from '../../http/audit-context.ts';
import { AppError } from '../../http/errors.ts';
import type { Feature } from '../../http/feature.ts';
import type { VersionedRules } from '../cases/rules.ts';
import { AssignBody, CaseDetailSchema, CaseIdParams, DispositionBody, NoteBody, QueueQuery, QueueSchema, RulesBody, RulesSchema } from './schemas.ts';
import type { AdjudicationService } from './service.ts';

const TAG = ['adjudication'];

const blankRefused = (value: string, pointer: string): string => {
  const trimmed = value.trim();
  if (trimmed === '')
    throw new AppError('validation_failed', `${pointer.slice(1)} must not be blank.`, { errors: [{ pointer, detail: 'must not be blank', in: 'body' }] });
  return trimmed;
};

const adjudication: Feature<{ adjudication: AdjudicationService }> = {
  name: 'adjudication',
  async register(api, _context, { adjudication: service }) {
    const presentRules = (rules: VersionedRules) => ({ object: 'adjudication_rules' as const, ...rules });

    api.get(
      '/adjudication/rules',
      {
        config: { tier: 'enterprise', permission: 'read' },
        schema: {
          tags: TAG,
          summary: "Get the organization's current adjudication rules",
          description: 'Version 0 is the defaults, in force until the first PUT.',
          response: { 200: RulesSchema },
        },
      },
      async (request) => presentRules(await service.getRules(auditContextOf(request))),
    );

    api.put(
      '/adjudication/rules',
      {
        config: { tier: 'enterprise', permission: 'administer', idempotent: true },
        schema: {
          tags: TAG,
          summary: 'Replace the adjudication rules',
          description:
            'Replaces the whole rule set at once and answers the new version; every version is kept and the change is audited. ' +
            'Rules apply to screenings from now on: a case keeps the version that was in force when it was screened. Needs an admin key or role. ' +
            'Every problem is reported at once, each with a pointer (`/thresholds/lists/FOO`).',
          body: RulesBody,
          response: { 200: RulesSchema },
        },
      },
      async (request) => {
        return presentRules(await service.putRules(auditContextOf(request), request.body));
      },
    );

    api.get(
      '/adjudication/queue',
      {
        config: { tier: 'defense', permission: 'read', auditRead: { action: 'case.listed', target: 'case', list: true } },
        schema: {
          tags: TAG,
          summary: 'List open and escalated cases',
          description:
            'Ordered by priority (critical first), then age (oldest first). Pages are stable: a case opened while you page through ' +
            'never makes another appear twice or be skipped. `totals` counts every case the filters match, by status.',
          querystring: QueueQuery,
          response: { 200: QueueSchema },
        },
      },
      async (request) => service.queueFromQuery(auditContextOf(request), request.query),
    );

    api.get(
      '/adjudication/:id',
      {
        config: { tier: 'defense', permission: 'read', auditRead: { action: 'case.viewed', target: 'case' } },
        schema: {
          tags: TAG,
          summary: 'Get a case',
          description: "The case with its screening (matches explained), its history and the rules that govern it. Another organization's id answers 404.",
          params: CaseIdParams,
          response: { 200: CaseDetailSchema },
        },
      },
      async (request) => service.getCase(auditContextOf(request), request.params.id),
    );

    api.post(
      '/adjudication/:id/disposition',
      {
        config: { tier: 'defense', permission: 'decide', idempotent: true, problems: ['invalid_transition', 'second_reviewer_required'] },
        schema: {
          tags: TAG,
          summary: 'Apply a disposition: CLEARED, ESCALATED or DENIED',
          description: [
            'OPEN may become ESCALATED, CLEARED or DENIED; ESCALATED may become CLEARED or DENIED; CLEARED and DENIED are closed (409 `invalid_transition`,',
            'which lists what is allowed). When the rules ask for four-eyes review, the first CLEARED or DENIED answers 202 with `pending_decision`',
            'and a second person confirms it by sending the same disposition (200). The confirmation must come from a person (a console user or a JWT),',
            'never an API key, and never from the person answerable for the proposal (its proposer, or whoever created the API key that proposed it):',
            'each of those answers 409 `second_reviewer_required`. The history names both people.',
            'A visitor session waiting on the case follows it. Clearing suppresses the false positives for this subject until the subject or the',
            'list entry changes, or the suppression expires. Audited; emits `case.disposition_applied`. A person with the viewer role cannot decide.',
          ].join(' '),
          params: CaseIdParams,
          body: DispositionBody,
          response: { 200: CaseDetailSchema, 202: CaseDetailSchema },
        },
      },
      async (request, reply) => {
        const body = { ...request.body, reason: blankRefused(request.body.reason, '/reason') };
        const { outcome, detail } = await service.dispose(auditContextOf(request), request.params.id, body);
        return reply.code(outcome === 'applied' ? 200 : 202).send(detail);
      },
    );

    api.post(
      '/adjudication/:id/assign',
      {
        config: { tier: 'defense', permission: 'decide', problems: ['conflict'] },
        schema: {
          tags: TAG,
          summary: 'Assign a case (or unassign it with null)',
          description: 'Open cases only; audited.',
          params: CaseIdParams,
          body: AssignBody,
          response: { 200: CaseDetailSchema },
        },
      },
      async (request) => {
        return service.assign(auditContextOf(request), request.params.id, request.body.assignee);
      },
    );

    api.post(
      '/adjudication/:id/notes',
      {
        config: { tier: 'defense', permission: 'decide' },
        schema: {
          tags: TAG,
          summary: 'Add a note to a case',
          description: "Kept in the case's history; the audit trail records that a note was added.",
          params: CaseIdParams,
          body: NoteBody,
          response: { 201: CaseDetailSchema },
        },
      },
      async (request, reply) => {
        return reply.code(201).send(await service.note(auditContextOf(request), request.params.id, blankRefused(request.body.text, '/text')));
      },
    );
  },
};

export default adjudication;
