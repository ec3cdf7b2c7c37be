/**
 * The organization's watchlists: each with its list code, whether it is screened, its entries and
 * its version; and, for admins, the form that creates one (POST /api/v1/watchlists's rules, its
 * schema, its slug conflict).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { auditContextOf } from '../../../http/audit-context.ts';
import { AppError } from '../../../http/errors.ts';
import type { Api } from '../../../http/feature.ts';
import { allows } from '../../../http/permissions.ts';
import { WATCHLIST_ID } from '../../watchlists/entry-schemas.ts';
import { type Watchlist, watchlistListCode } from '../../watchlists/model.ts';
import type { WatchlistService } from '../../watchlists/service.ts';
import { CreateWatchlistBody } from '../../watchlists/watchlist-schemas.ts';
import { badge, when } from '../format.ts';
import { type Html, href, html } from '../html.ts';
import { csrfField, sendPage, type Viewer } from '../layout.ts';
import { NEW_WATCHLIST, WATCHLIST_LABELS, WatchlistForm, type WatchlistFormValues, watchlistBodyFrom, watchlistForm } from './watchlist-form.ts';
import { ADMINISTER, problemsBox, READ, SHOWN_ON_FORM, watchlistPath } from './watchlist-words.ts';

const PAGE_SIZE = 50;

const ListQuery = Type.Object({
  after: Type.Optional(Type.String({ pattern: WATCHLIST_ID })),
  done: Type.Optional(Type.Literal('deleted')),
});

export function registerWatchlistsPage(api: Api, deps: { watchlists: Pick<WatchlistService, 'list' | 'create'> }) {
  async function showList(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { after?: string | undefined; form?: WatchlistFormValues; refusal?: AppError; deleted?: boolean } = {},
  ) {
    const rows = await deps.watchlists.list(auditContextOf(request), {}, { limit: PAGE_SIZE + 1, ...(extra.after && { afterId: extra.after }) });
    const page = rows.slice(0, PAGE_SIZE);
    const next = rows.length > PAGE_SIZE ? page.at(-1)?.id : undefined;
    const viewer = request.viewer as Viewer;
    const creates = allows(ADMINISTER, viewer.tier, viewer.role);
    return sendPage(request, reply, {
      title: 'Watchlists',
      section: 'watchlists',
      status: extra.refusal?.status ?? 200,
      notice: extra.deleted ? { kind: 'status', text: 'The watchlist is deleted: it matches nothing from now on. Its history is kept.' } : undefined,
      body: html`<p>Your organization’s own lists of people, organizations and vessels, screened beside the public lists. A match on one is labelled <code>ORG:</code> and its slug.</p>
${page.length === 0 ? html`<p>Your organization has no watchlist yet.</p>` : watchlistTable(page)}
<nav class="pages" aria-label="Watchlist pages">
${extra.after && html`<a href="/console/watchlists">First page</a>`}
${next && html`<a href="${href('/console/watchlists', { after: next })}" rel="next">Next page</a>`}
</nav>
${creates ? createSection(csrfField(request, reply), extra.form ?? NEW_WATCHLIST, extra.refusal) : html`<p class="help">Only admins create, change and delete watchlists.</p>`}`,
    });
  }

  api.get('/watchlists', { config: READ, schema: { querystring: ListQuery } }, async (request, reply) =>
    showList(request, reply, { after: request.query.after, deleted: request.query.done === 'deleted' }),
  );

  api.post('/watchlists', { config: ADMINISTER, schema: { body: WatchlistForm } }, async (request, reply) => {
    const { _csrf, ...form } = request.body;
    try {
      const created = await deps.watchlists.create(auditContextOf(request), await watchlistBodyFrom(form, CreateWatchlistBody));
      return reply.redirect(`${watchlistPath(created)}?done=created`, 303);
    } catch (error) {
      if (!(error instanceof AppError) || !SHOWN_ON_FORM.has(error.code)) throw error;
      return showList(request, reply, { form, refusal: error });
    }
  });
}

function watchlistTable(watchlists: Watchlist[]): Html {
  return html`<table>
<caption class="visually-hidden">Watchlists</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Slug</th><th scope="col">Screened</th><th scope="col">Entries</th><th scope="col">Version</th><th scope="col">Last changed</th></tr></thead>
<tbody>${watchlists.map(
    (w) =>
      html`<tr><td><a href="${watchlistPath(w)}">${w.name}</a></td><td><code>${w.slug}</code> <span class="list-code">${watchlistListCode(w.slug)}</span></td><td>${w.active ? badge('active', 'cleared') : badge('inactive', 'closed')}</td><td>${w.entryCount}</td><td>${w.version}</td><td>${when(w.updatedAt)}</td></tr>`,
  )}</tbody>
</table>`;
}

function createSection(csrf: Html, values: WatchlistFormValues, refusal: AppError | undefined): Html {
  return html`<section aria-labelledby="create-heading">
<h2 id="create-heading">Create a watchlist</h2>
${refusal && problemsBox(refusal, WATCHLIST_LABELS)}
${watchlistForm({ action: '/console/watchlists', values, csrf, submit: 'Create the watchlist' })}
</section>`;
}
