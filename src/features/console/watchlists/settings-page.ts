/**
 * A watchlist's settings, for admins: its name, slug, description, threshold and whether it is
 * screened, changed as PATCH /api/v1/watchlists/{id} changes them; and deleting it, as DELETE
 * does (it matches nothing from then on, its history stays, its slug is free again).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { auditContextOf } from '../../../http/audit-context.ts';
import { AppError } from '../../../http/errors.ts';
import type { Api } from '../../../http/feature.ts';
import type { WatchlistService } from '../../watchlists/service.ts';
import { UpdateWatchlistBody, WatchlistParams } from '../../watchlists/watchlist-schemas.ts';
import { type Html, html } from '../html.ts';
import { csrfField, sendPage } from '../layout.ts';
import { formValuesOf, WATCHLIST_LABELS, WatchlistForm, type WatchlistFormValues, watchlistBodyFrom, watchlistForm } from './watchlist-form.ts';
import { ADMINISTER, problemsBox, SHOWN_ON_FORM, trail, watchlistPath } from './watchlist-words.ts';

const DeleteForm = Type.Object({ _csrf: Type.String({ maxLength: 200 }) });

export function registerSettingsPage(api: Api, deps: { watchlists: Pick<WatchlistService, 'get' | 'update' | 'remove'> }) {
  const { watchlists } = deps;

  async function showSettings(request: FastifyRequest, reply: FastifyReply, id: string, typed?: { values: WatchlistFormValues; refusal: AppError }) {
    const watchlist = await watchlists.get(auditContextOf(request), id);
    const csrf = csrfField(request, reply);
    const path = watchlistPath(watchlist);
    return sendPage(request, reply, {
      title: `Settings: ${watchlist.name}`,
      section: 'watchlists',
      status: typed?.refusal.status ?? 200,
      body: html`${trail(watchlist, 'Settings')}
${typed && problemsBox(typed.refusal, WATCHLIST_LABELS)}
${watchlistForm({ action: `${path}/settings`, values: typed?.values ?? formValuesOf(watchlist), csrf, submit: 'Save the settings' })}
${deleteSection(path, watchlist.name, csrf)}`,
    });
  }

  api.get('/watchlists/:id/settings', { config: ADMINISTER, schema: { params: WatchlistParams } }, async (request, reply) =>
    showSettings(request, reply, request.params.id),
  );

  api.post('/watchlists/:id/settings', { config: ADMINISTER, schema: { params: WatchlistParams, body: WatchlistForm } }, async (request, reply) => {
    const { _csrf, ...form } = request.body;
    try {
      const updated = await watchlists.update(auditContextOf(request), request.params.id, await watchlistBodyFrom(form, UpdateWatchlistBody));
      return reply.redirect(`${watchlistPath(updated)}?done=updated`, 303);
    } catch (error) {
      if (!(error instanceof AppError) || !SHOWN_ON_FORM.has(error.code)) throw error;
      return showSettings(request, reply, request.params.id, { values: form, refusal: error });
    }
  });

  api.post('/watchlists/:id/delete', { config: ADMINISTER, schema: { params: WatchlistParams, body: DeleteForm } }, async (request, reply) => {
    await watchlists.remove(auditContextOf(request), request.params.id);
    return reply.redirect('/console/watchlists?done=deleted', 303);
  });
}

function deleteSection(path: string, name: string, csrf: Html): Html {
  return html`<section aria-labelledby="delete-heading">
<h2 id="delete-heading">Delete the watchlist</h2>
<p>It matches nothing from then on, and leaves the console; its history is kept, and its slug is free for another watchlist.</p>
<form method="post" action="${path}/delete" data-confirm="Delete the watchlist ${name}? It stops matching at once.">
${csrf}
<p><button type="submit">Delete the watchlist</button></p>
</form>
</section>`;
}
