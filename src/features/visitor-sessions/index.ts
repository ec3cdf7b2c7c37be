/**
 * Visitor check-in and sessions: screen at the door (Defense), follow a session through review,
 * entry and exit, and answer the roll-call question: who is on site now?
 */
import { auditContextOf } from '../../http/audit-context.ts';
import { decodeCursor } from '../../http/cursor.ts';
import type { Feature } from '../../http/feature.ts';
import { cursorPage } from '../../http/list-page.ts';
import { checkinInput } from './checkin-input.ts';
import { presentSession } from './present.ts';
import { CheckinBody, SessionIdParams, SessionListSchema, SessionSchema, SessionsQuery, SessionUpdateBody } from './schemas.ts';
import type { SessionService } from './service.ts';

const TAG = ['visitors'];

const isPosition = (value: unknown): value is { c: string; i: string } => {
  const v = value as { c?: unknown; i?: unknown } | null;
  return typeof v === 'object' && v !== null && typeof v.c === 'string' && !Number.isNaN(Date.parse(v.c)) && typeof v.i === 'string';
};

const visitorSessions: Feature<{ visitorSessions: SessionService }> = {
  name: 'visitor-sessions',
  async register(api, _context, { visitorSessions: service }) {
    api.addSchema(SessionSchema);

    api.post(
      '/checkin',
      {
        config: { tier: 'defense', permission: 'operate', idempotent: true, problems: ['lists_unavailable'] },
        schema: {
          tags: TAG,
          summary: 'Check in a visitor',
          description: [
            'Screens the visitor (and their company) now, or stands on a fresh prescreen of the same person (`prescreen_id`), and opens the session.',
            'No potential match (or every match suppressed by an earlier clearing): `checked_in`, event `visitor.checked_in`. A potential match:',
            '`pending_review` with the adjudication case (`case_id`) the visitor waits on; the visitor is not checked in until the case is CLEARED,',
            'and a DENIED case denies the session. A case the rules escalate at once gives `escalated` (event `session.escalated`).',
            'A visitor whose citizenship or country is under a prohibition (a comprehensive embargo, ITAR §126.1(d)(1)), or under a regime the',
            "rules' `escalation.country_flags` names, is held the same way with no name match: the screening's `holds[]` and the case's",
            '`priority_reasons` name the country rule (adjudication rules `country_holds` decide which regimes hold).',
            'With no list loaded: 503 `lists_unavailable`, never a false check-in.',
          ].join(' '),
          body: CheckinBody,
          response: { 201: SessionSchema },
        },
      },
      async (request, reply) => {
        const { session, reuse } = await service.checkIn(auditContextOf(request), checkinInput(request.body, new Date()));
        return reply.code(201).header('location', `/api/v1/sessions/${session.id}`).send(presentSession(session, reuse));
      },
    );

    api.get(
      '/sessions',
      {
        config: { tier: 'defense', permission: 'read', auditRead: { action: 'visitor_session.listed', target: 'visitor_session', list: true } },
        schema: {
          tags: TAG,
          summary: 'List visitor sessions (roll-call)',
          description: 'Newest first, with cursor pages. `?on_site=true&site=…` is the roll-call of a site: who is inside now.',
          querystring: SessionsQuery,
          response: { 200: SessionListSchema },
        },
      },
      async (request) => {
        const q = request.query;
        const limit = q.limit ?? 50;
        const after = q.cursor ? (({ c, i }) => ({ createdAt: new Date(c), id: i }))(decodeCursor(q.cursor, 'the session list', isPosition)) : undefined;
        const rows = await service.list(
          auditContextOf(request),
          {
            ...(q.status && { statuses: q.status }),
            ...(q.site !== undefined && { site: q.site }),
            ...(q.on_site !== undefined && { onSite: q.on_site }),
            ...(q.since !== undefined && { since: new Date(q.since) }),
          },
          after,
          limit + 1,
        );
        return cursorPage(
          rows,
          limit,
          (s) => presentSession(s),
          (s) => ({ c: s.created_at.toISOString(), i: s.id }),
        );
      },
    );

    api.get(
      '/sessions/:id',
      {
        config: { tier: 'defense', permission: 'read', auditRead: { action: 'visitor_session.viewed', target: 'visitor_session' } },
        schema: {
          tags: TAG,
          summary: 'Get a visitor session',
          description: "With its history. Another organization's id answers 404.",
          params: SessionIdParams,
          response: { 200: SessionSchema },
        },
      },
      async (request) => presentSession(await service.get(auditContextOf(request), request.params.id)),
    );

    api.post(
      '/sessions/:id/update',
      {
        config: { tier: 'defense', permission: 'operate', idempotent: true, problems: ['invalid_transition'] },
        schema: {
          tags: TAG,
          summary: "Update a visitor session's status and metadata",
          description: [
            'Moves the session (`checked_out` at the exit, `escalated`, `denied`) when the move is allowed from its status; otherwise 409',
            '`invalid_transition` with `allowed`. Checking in a visitor whose case is not CLEARED is refused: the case decides that.',
            'Metadata is merged (a key set to null is removed); a note goes to the history. Audited; a move emits its event',
            '(`visitor.checked_in`, `visitor.checked_out`, `session.escalated`).',
          ].join(' '),
          params: SessionIdParams,
          body: SessionUpdateBody,
          response: { 200: SessionSchema },
        },
      },
      async (request) => {
        const { status, metadata, note } = request.body;
        const trimmedNote = note?.trim();
        return presentSession(
          await service.update(auditContextOf(request), request.params.id, {
            ...(status && { status }),
            ...(metadata && { metadata }),
            ...(trimmedNote && { note: trimmedNote }),
          }),
        );
      },
    );
  },
};

export default visitorSessions;
