/**
 * The queue: open and escalated cases, most urgent first (priority, then age), with the filters
 * of GET /api/v1/adjudication/queue, its totals and its stable cursor pages. An overdue case is
 * red and says so in words.
 */
import { Type } from 'typebox';
import { auditContextOf } from '../../../http/audit-context.ts';
import { recordShown } from '../../../http/audited-reads.ts';
import type { Api } from '../../../http/feature.ts';
import type { ListCatalog } from '../../../lists/catalog.ts';
import type { AdjudicationService } from '../../adjudication/service.ts';
import { actorLabel, badge, fromNow, score, subjectLine, when } from '../format.ts';
import { href, html } from '../html.ts';
import { sendPage } from '../layout.ts';

const PAGE_SIZE = 25;
const SOURCES = ['prescreen', 'checkin', 'vendor', 'workforce', 'rescreen'] as const;

const optionalOf = (values: readonly string[]) => Type.Optional(Type.String({ enum: ['', ...values] }));
const QueueQuery = Type.Object({
  status: optionalOf(['OPEN', 'ESCALATED']),
  list: Type.Optional(Type.String({ pattern: '^([A-Za-z][A-Za-z0-9_]{1,31})?$' })),
  source: optionalOf(SOURCES),
  overdue: optionalOf(['true', 'false']),
  min_score: Type.Optional(Type.String({ pattern: '^(0(\\.[0-9]{1,3})?|1(\\.0{1,3})?)?$' })),
  assignee: Type.Optional(Type.String({ maxLength: 200 })),
  cursor: Type.Optional(Type.String({ maxLength: 300 })),
});

type Filters = { status?: string; list?: string; source?: string; overdue?: string; min_score?: string; assignee?: string };

export function registerQueuePage(api: Api, deps: { adjudication: Pick<AdjudicationService, 'queueFromQuery'>; lists: ListCatalog }) {
  api.get(
    '/queue',
    { config: { tier: 'defense', permission: 'read', auditRead: { action: 'case.listed', target: 'case', list: true } }, schema: { querystring: QueueQuery } },
    async (request, reply) => {
      const { cursor, ...filters } = request.query as Filters & { cursor?: string };
      const now = new Date();
      const assignee = filters.assignee?.trim();
      const page = await deps.adjudication.queueFromQuery(
        auditContextOf(request),
        {
          ...(filters.status && { status: [filters.status as 'OPEN' | 'ESCALATED'] }),
          ...(filters.list && { list: filters.list }),
          ...(filters.source && { source: filters.source as (typeof SOURCES)[number] }),
          ...(filters.overdue && { overdue: filters.overdue === 'true' }),
          ...(filters.min_score && { min_score: Number(filters.min_score) }),
          ...(assignee && { assignee }),
          ...(cursor && { cursor }),
          limit: PAGE_SIZE,
        },
        now,
      );
      recordShown(
        request,
        page.data.map((c) => c.id),
      );
      const lists =
        deps.lists
          .current()
          ?.versions.map((v) => v.list)
          .sort() ?? [];
      const total = Object.values(page.totals).reduce((a, b) => a + b, 0);
      const counts = Object.entries(page.totals)
        .map(([status, n]) => `${n} ${status.toLowerCase()}`)
        .join(', ');
      return sendPage(request, reply, {
        title: 'Adjudication queue',
        section: 'queue',
        body: html`${filterForm(filters, lists)}
<p class="summary">${total === 0 ? 'No case matches these filters.' : `${total} case${total === 1 ? ' matches' : 's match'} these filters (${counts}). Most urgent first.`}</p>
${
  page.data.length > 0 &&
  html`<table class="queue">
<caption class="visually-hidden">Open cases, most urgent first</caption>
<thead><tr><th scope="col">Priority</th><th scope="col">Subject</th><th scope="col">Top match</th><th scope="col">Score</th><th scope="col">Status</th><th scope="col">Source</th><th scope="col">SLA</th><th scope="col">Opened</th><th scope="col">Assignee</th></tr></thead>
<tbody>
${page.data.map(
  (c) => html`<tr${c.overdue ? html` class="overdue"` : ''}>
<td>${badge(c.priority)}</td>
<td><a href="/console/cases/${c.id}">${subjectLine(c.subject)}</a></td>
<td>${c.top_match ? html`${c.top_match.entry_name} <span class="list-code">${c.top_match.list}</span>` : '—'}</td>
<td>${score(c.score)}</td>
<td>${badge(c.status)}${c.pending_decision && html` ${badge(`${c.pending_decision.disposition} awaits 2nd reviewer`, 'pending')}`}</td>
<td>${c.source}</td>
<td>${c.overdue ? html`<strong class="overdue-text">Overdue</strong> since ` : 'Due '}${when(c.sla_due_at)} <span class="help">(${fromNow(c.sla_due_at, now)})</span></td>
<td>${when(c.created_at)}</td>
<td>${c.assignee ? actorLabel(c.assignee) : '—'}</td>
</tr>`,
)}
</tbody>
</table>`
}
<nav class="pages" aria-label="Queue pages">
${cursor && html`<a href="${href('/console/queue', filters)}">First page</a>`}
${page.next_cursor && html`<a href="${href('/console/queue', { ...filters, cursor: page.next_cursor })}" rel="next">Next page</a>`}
</nav>`,
      });
    },
  );
}

function filterForm(filters: Filters, lists: string[]) {
  const option = (value: string, label: string, current: string | undefined) =>
    html`<option value="${value}"${(current ?? '') === value ? html` selected` : ''}>${label}</option>`;
  return html`<form class="filters" method="get" action="/console/queue" role="search" aria-label="Filter the queue">
<p><label for="status">Status</label>
<select id="status" name="status">${option('', 'Open and escalated', filters.status)}${option('OPEN', 'Open', filters.status)}${option('ESCALATED', 'Escalated', filters.status)}</select></p>
<p><label for="list">List</label>
<select id="list" name="list">${option('', 'Any list', filters.list)}${lists.map((l) => option(l, l, filters.list))}</select></p>
<p><label for="source">Source</label>
<select id="source" name="source">${option('', 'Any source', filters.source)}${SOURCES.map((s) => option(s, s, filters.source))}</select></p>
<p><label for="overdue">SLA</label>
<select id="overdue" name="overdue">${option('', 'Any', filters.overdue)}${option('true', 'Overdue only', filters.overdue)}${option('false', 'Within SLA only', filters.overdue)}</select></p>
<p><label for="min_score">Lowest score</label>
<input id="min_score" name="min_score" inputmode="decimal" pattern="(0(\\.[0-9]{1,3})?|1(\\.0{1,3})?)" size="5" value="${filters.min_score ?? ''}" aria-describedby="min-score-help">
<span id="min-score-help" class="help">0 to 1, e.g. 0.9</span></p>
<p><label for="assignee">Assignee</label>
<input id="assignee" name="assignee" size="20" value="${filters.assignee ?? ''}"></p>
<p><button type="submit">Filter</button> <a href="/console/queue">Clear filters</a></p>
</form>`;
}
