/**
 * A watchlist's entries one at a time: the form that adds one, the entry's page, and the changes
 * made from it (edit, expiry, removal). They go through the watchlist service as the API's
 * entry routes do (its checks, its versions, its audit records), with the same roles: operators
 * keep entries, and everyone reads them, each read of an entry recorded as the API's is.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ReadTrail } from '../../../audit/read-trail.ts';
import { auditContextOf } from '../../../http/audit-context.ts';
import { AppError } from '../../../http/errors.ts';
import type { Api } from '../../../http/feature.ts';
import { allows } from '../../../http/permissions.ts';
import { EntryParams } from '../../watchlists/entry-schemas.ts';
import type { WatchlistService } from '../../watchlists/service.ts';
import { WatchlistParams } from '../../watchlists/watchlist-schemas.ts';
import { html } from '../html.ts';
import { csrfField, type Notice, sendPage, type Viewer } from '../layout.ts';
import { BLANK_ENTRY, ENTRY_LABELS, EntryForm, type EntryFormValues, entryBodyFrom, entryForm, formValuesOf, notADay, startOfDay } from './entry-form.ts';
import { type EntryView, entryBody, entryPath } from './entry-view.ts';
import { KEEP_ENTRIES, problemsBox, READ, SHOWN_ON_FORM, trail, watchlistPath } from './watchlist-words.ts';

const EntryQuery = Type.Object({ done: Type.Optional(Type.String({ enum: ['added', 'changed', 'expired', 'unexpired', 'removed'] })) });
const ExpiryForm = Type.Object({
  _csrf: Type.String({ maxLength: 200 }),
  when: Type.String({ enum: ['now', 'date', 'never'] }),
  on: Type.Optional(Type.String({ pattern: '^(\\d{4}-\\d{2}-\\d{2})?$' })),
});
const ChangeForm = Type.Object({ _csrf: Type.String({ maxLength: 200 }) });

const DONE: Record<string, Notice> = {
  added: { kind: 'status', text: 'The entry is added: the next screening matches it.' },
  changed: { kind: 'status', text: 'The changes are saved.' },
  expired: { kind: 'status', text: 'The expiry is set.' },
  unexpired: { kind: 'status', text: 'The expiry is cleared: the entry matches again.' },
  removed: { kind: 'status', text: 'The entry is removed: it matches nothing from now on.' },
};

type Deps = {
  watchlists: Pick<WatchlistService, 'get' | 'getEntry' | 'addEntry' | 'updateEntry' | 'removeEntry'>;
  reads: ReadTrail;
};

export function registerEntryPages(api: Api, deps: Deps) {
  const { watchlists } = deps;

  async function showNewEntry(request: FastifyRequest, reply: FastifyReply, id: string, values: EntryFormValues, refusal?: AppError) {
    const watchlist = await watchlists.get(auditContextOf(request), id);
    return sendPage(request, reply, {
      title: `Add an entry to ${watchlist.name}`,
      section: 'watchlists',
      status: refusal?.status ?? 200,
      body: html`${trail(watchlist, 'Add an entry')}
${refusal && problemsBox(refusal, ENTRY_LABELS)}
${entryForm({ action: `${watchlistPath(watchlist)}/entries`, values, csrf: csrfField(request, reply), submit: 'Add the entry', withExpiry: true })}`,
    });
  }

  async function showEntry(
    request: FastifyRequest,
    reply: FastifyReply,
    params: { id: string; entry_id: string },
    extra: { notice?: Notice | undefined; status?: number; edit?: EntryView['edit'] } = {},
  ) {
    const context = auditContextOf(request);
    const watchlist = await watchlists.get(context, params.id);
    const entry = await watchlists.getEntry(context, params.id, params.entry_id);
    deps.reads.record(context, {
      action: 'watchlist_entry.viewed',
      target: { type: 'watchlist_entry', id: entry.id },
      details: { watchlist_id: watchlist.id },
    });
    const viewer = request.viewer as Viewer;
    const csrf = allows(KEEP_ENTRIES, viewer.tier, viewer.role) ? csrfField(request, reply) : undefined;
    const view: EntryView = { watchlist, entry, now: new Date(), csrf, ...(extra.edit && { edit: extra.edit }) };
    return sendPage(request, reply, {
      title: entry.names[0]?.full ?? entry.id,
      section: 'watchlists',
      notice: extra.notice,
      status: extra.status ?? extra.edit?.refusal.status ?? 200,
      body: entryBody(view, extra.edit?.values ?? formValuesOf(entry)),
    });
  }

  /** Runs a change; a refusal a person can act on is shown on the entry's page, beside its forms. */
  async function change(request: FastifyRequest, reply: FastifyReply, params: { id: string; entry_id: string }, run: () => Promise<string>) {
    try {
      const done = await run();
      return reply.redirect(`${entryPath({ id: params.id }, { id: params.entry_id })}?done=${done}`, 303);
    } catch (error) {
      if (!(error instanceof AppError) || !SHOWN_ON_FORM.has(error.code)) throw error;
      return showEntry(request, reply, params, { notice: { kind: 'alert', text: error.detail }, status: error.status });
    }
  }

  api.get('/watchlists/:id/entries/new', { config: KEEP_ENTRIES, schema: { params: WatchlistParams } }, async (request, reply) =>
    showNewEntry(request, reply, request.params.id, BLANK_ENTRY),
  );

  api.post('/watchlists/:id/entries', { config: KEEP_ENTRIES, schema: { params: WatchlistParams, body: EntryForm } }, async (request, reply) => {
    const { _csrf, ...form } = request.body;
    try {
      const entry = await watchlists.addEntry(auditContextOf(request), request.params.id, await entryBodyFrom(form));
      return reply.redirect(`${entryPath({ id: request.params.id }, entry)}?done=added`, 303);
    } catch (error) {
      if (!(error instanceof AppError) || !SHOWN_ON_FORM.has(error.code)) throw error;
      return showNewEntry(request, reply, request.params.id, form, error);
    }
  });

  api.get(
    '/watchlists/:id/entries/:entry_id',
    {
      config: { ...READ, auditRead: { action: 'watchlist_entry.viewed', target: 'watchlist', recordedByHandler: true } },
      schema: { params: EntryParams, querystring: EntryQuery },
    },
    async (request, reply) => showEntry(request, reply, request.params, { notice: request.query.done ? DONE[request.query.done] : undefined }),
  );

  api.post('/watchlists/:id/entries/:entry_id', { config: KEEP_ENTRIES, schema: { params: EntryParams, body: EntryForm } }, async (request, reply) => {
    const { _csrf, expires_on: _ignored, ...form } = request.body;
    try {
      // The expiry is left as it is: it has its own form.
      const { expires_at: _kept, ...patch } = await entryBodyFrom(form);
      await watchlists.updateEntry(auditContextOf(request), request.params.id, request.params.entry_id, patch);
      return reply.redirect(`${entryPath({ id: request.params.id }, { id: request.params.entry_id })}?done=changed`, 303);
    } catch (error) {
      if (!(error instanceof AppError) || !SHOWN_ON_FORM.has(error.code)) throw error;
      return showEntry(request, reply, request.params, { edit: { values: form, refusal: error } });
    }
  });

  api.post('/watchlists/:id/entries/:entry_id/expire', { config: KEEP_ENTRIES, schema: { params: EntryParams, body: ExpiryForm } }, async (request, reply) =>
    change(request, reply, request.params, async () => {
      const { when, on } = request.body;
      if (when === 'date' && !on)
        throw new AppError('validation_failed', 'Choose the date the entry expires on, or choose “Now”.', {
          errors: [{ pointer: '/expires_at', detail: 'is required' }],
        });
      const expiresAt = when === 'never' ? null : when === 'now' ? new Date().toISOString() : startOfDay(on as string);
      if (expiresAt === undefined) throw new AppError('validation_failed', `${on} is not a day of the calendar.`, { errors: [notADay(on as string)] });
      await watchlists.updateEntry(auditContextOf(request), request.params.id, request.params.entry_id, { expires_at: expiresAt });
      return expiresAt === null ? 'unexpired' : 'expired';
    }),
  );

  api.post('/watchlists/:id/entries/:entry_id/remove', { config: KEEP_ENTRIES, schema: { params: EntryParams, body: ChangeForm } }, async (request, reply) =>
    change(request, reply, request.params, async () => {
      await watchlists.removeEntry(auditContextOf(request), request.params.id, request.params.entry_id);
      return 'removed';
    }),
  );
}
