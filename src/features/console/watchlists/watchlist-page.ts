/**
 * One watchlist: what it is, its entries searched by name, severity and status (the filters of
 * GET /api/v1/watchlists/{id}/entries, paged), its latest changes, and what this person may do
 * from here (operators add and import entries, admins change its settings). The entries shown
 * name people, so each visit is recorded as the API's list of entries is.
 */
import { Type } from 'typebox';
import { auditContextOf } from '../../../http/audit-context.ts';
import { recordShown } from '../../../http/audited-reads.ts';
import type { Api } from '../../../http/feature.ts';
import { allows } from '../../../http/permissions.ts';
import { ENTRY_ID } from '../../watchlists/entry-schemas.ts';
import { ENTRY_STATUSES, entryStatusAt, SEVERITIES, type Watchlist, type WatchlistEntry, watchlistListCode } from '../../watchlists/model.ts';
import type { WatchlistService } from '../../watchlists/service.ts';
import type { EntryFilters } from '../../watchlists/store.ts';
import { WatchlistParams } from '../../watchlists/watchlist-schemas.ts';
import { actorLabel, badge, when } from '../format.ts';
import { type Html, href, html } from '../html.ts';
import { type Notice, sendPage, type Viewer } from '../layout.ts';
import { historyTable } from './history-pages.ts';
import { ADMINISTER, KEEP_ENTRIES, READ, severityBadge, statusBadge, trail, watchlistPath } from './watchlist-words.ts';

const PAGE_SIZE = 50;
const RECENT_CHANGES = 5;

const optionalOf = (values: readonly string[]) => Type.Optional(Type.String({ enum: ['', ...values] }));
const WatchlistQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  severity: optionalOf(SEVERITIES),
  status: optionalOf(ENTRY_STATUSES),
  after: Type.Optional(Type.String({ pattern: ENTRY_ID })),
  done: Type.Optional(Type.String({ enum: ['created', 'updated'] })),
});
type Search = { q?: string; severity?: string; status?: string };

const DONE: Record<string, Notice> = {
  created: { kind: 'status', text: 'The watchlist is created. Add its entries one by one, or import a CSV file.' },
  updated: { kind: 'status', text: 'The watchlist’s settings are saved.' },
};

export function registerWatchlistPage(api: Api, deps: { watchlists: Pick<WatchlistService, 'get' | 'listEntries' | 'versions'> }) {
  api.get(
    '/watchlists/:id',
    {
      config: { ...READ, auditRead: { action: 'watchlist_entry.listed', target: 'watchlist_entry', list: true } },
      schema: { params: WatchlistParams, querystring: WatchlistQuery },
    },
    async (request, reply) => {
      const context = auditContextOf(request);
      const { after, done, ...raw } = request.query;
      const search: Search = {
        ...(raw.q?.trim() && { q: raw.q.trim() }),
        ...(raw.severity && { severity: raw.severity }),
        ...(raw.status && { status: raw.status }),
      };
      const watchlist = await deps.watchlists.get(context, request.params.id);
      const rows = await deps.watchlists.listEntries(context, watchlist.id, search as EntryFilters, { limit: PAGE_SIZE + 1, ...(after && { afterId: after }) });
      const entries = rows.slice(0, PAGE_SIZE);
      const next = rows.length > PAGE_SIZE ? entries.at(-1)?.id : undefined;
      recordShown(
        request,
        entries.map((e) => e.id),
      );
      const versions = await deps.watchlists.versions(context, watchlist.id, { limit: RECENT_CHANGES });
      const path = watchlistPath(watchlist);
      return sendPage(request, reply, {
        title: watchlist.name,
        section: 'watchlists',
        notice: done ? DONE[done] : undefined,
        body: html`${trail(watchlist)}
${summary(watchlist)}
${actions(watchlist, request.viewer as Viewer)}
<section aria-labelledby="entries-heading">
<h2 id="entries-heading">Entries</h2>
${searchForm(path, search)}
${entries.length === 0 ? html`<p>No entry matches.</p>` : entryTable(path, entries)}
<nav class="pages" aria-label="Entry pages">
${after && html`<a href="${href(path, search)}">First page</a>`}
${next && html`<a href="${href(path, { ...search, after: next })}" rel="next">Next page</a>`}
</nav>
</section>
<section aria-labelledby="changes-heading">
<h2 id="changes-heading">Latest changes</h2>
${historyTable(watchlist, versions)}
<p><a href="${path}/history">The full history</a></p>
</section>`,
      });
    },
  );
}

function summary(w: Watchlist): Html {
  return html`<dl>
<dt>List code</dt><dd><code>${watchlistListCode(w.slug)}</code> <span class="help">its matches are labelled so</span></dd>
${w.description && html`<dt>Description</dt><dd class="prose">${w.description}</dd>`}
<dt>Screened</dt><dd>${w.active ? badge('active', 'cleared') : html`${badge('inactive', 'closed')} <span class="help">kept, and matches nothing</span>`}</dd>
<dt>Threshold</dt><dd>${w.threshold === null ? 'your organization’s match threshold' : w.threshold.toFixed(2)}</dd>
<dt>Entries</dt><dd>${w.entryCount} <span class="help">active and expired</span></dd>
<dt>Version</dt><dd>${w.version}, ${when(w.updatedAt)}</dd>
<dt>Created</dt><dd>${when(w.createdAt)} by ${actorLabel(w.createdBy)}</dd>
</dl>`;
}

function actions(w: Watchlist, viewer: Viewer): Html {
  const path = watchlistPath(w);
  const links = [
    ...(allows(KEEP_ENTRIES, viewer.tier, viewer.role)
      ? [html`<a href="${path}/entries/new">Add an entry</a>`, html`<a href="${path}/import">Import a CSV file</a>`]
      : []),
    ...(allows(ADMINISTER, viewer.tier, viewer.role) ? [html`<a href="${path}/settings">Change its settings, or delete it</a>`] : []),
  ];
  if (links.length === 0) return html`<p class="help">You have the viewer role: you can look at the watchlist but not change it.</p>`;
  return html`<ul class="actions-list">${links.map((link) => html`<li>${link}</li>`)}</ul>`;
}

function searchForm(path: string, search: Search): Html {
  const option = (value: string, label: string, current: string | undefined) =>
    html`<option value="${value}"${(current ?? '') === value ? html` selected` : ''}>${label}</option>`;
  return html`<form class="filters" method="get" action="${path}" role="search" aria-label="Search the entries">
<p><label for="q">Name contains</label> <input id="q" name="q" size="24" maxlength="200" value="${search.q ?? ''}"></p>
<p><label for="severity">Severity</label>
<select id="severity" name="severity">${option('', 'Any severity', search.severity)}${SEVERITIES.map((s) => option(s, s, search.severity))}</select></p>
<p><label for="status">Status</label>
<select id="status" name="status">${option('', 'Active and expired', search.status)}${ENTRY_STATUSES.map((s) => option(s, s, search.status))}</select></p>
<p><button type="submit">Search</button> <a href="${path}">Clear the search</a></p>
</form>`;
}

function entryTable(path: string, entries: WatchlistEntry[]): Html {
  const now = new Date();
  return html`<table class="entries">
<caption class="visually-hidden">Entries, in the order they were added</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col">Severity</th><th scope="col">Status</th><th scope="col">Expires</th><th scope="col">Reason</th><th scope="col">Last changed</th></tr></thead>
<tbody>${entries.map((e) => {
    const aliases = e.names.slice(1).map((n) => n.full);
    return html`<tr><td><a href="${path}/entries/${e.id}">${e.names[0]?.full ?? e.id}</a>${aliases.length > 0 && html`<br><span class="help">also ${aliases.join('; ')}</span>`}</td><td>${e.type}</td><td>${severityBadge(e.severity)}</td><td>${statusBadge(entryStatusAt(e, now))}</td><td>${e.expiresAt ? when(e.expiresAt) : 'never'}</td><td class="prose">${e.reason}</td><td>${when(e.updatedAt)} <span class="help">by ${actorLabel(e.updatedBy)}</span></td></tr>`;
  })}</tbody>
</table>`;
}
