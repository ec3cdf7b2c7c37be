/**
 * The routes of a watchlist's entries, one at a time. Adding, changing and removing entries is
 * an operator's (a security desk, or an HR system's standard key adding a terminated employee);
 * reading them is everyone's, and audited, since entries name people.
 */
import { Type } from 'typebox';
import type { ReadTrail } from '../../audit/read-trail.ts';
import { auditContextOf } from '../../http/audit-context.ts';
import { decodeCursor, isIdPosition } from '../../http/cursor.ts';
import type { Api } from '../../http/feature.ts';
import { cursorPage } from '../../http/list-page.ts';
import { EntryBody, EntryParams, EntryPatchBody } from './entry-schemas.ts';
import { EntriesQuery, pageOf } from './list-schemas.ts';
import { presentEntry } from './present.ts';
import type { WatchlistService } from './service.ts';
import { WatchlistParams } from './watchlist-schemas.ts';

const TAGS = ['watchlists'];

export function registerEntryRoutes(api: Api, service: WatchlistService, reads: ReadTrail) {
  api.post(
    '/watchlists/:id/entries',
    {
      config: { tier: 'defense', permission: 'operate', idempotent: true, problems: ['conflict'] },
      schema: {
        tags: TAGS,
        summary: 'Add an entry to a watchlist',
        description:
          'Adds a person, organization or vessel, with its names, dates of birth, countries, identifiers, the reason and a severity, and an ' +
          'optional expiry (in the future). It is a new version of the watchlist (`entries_added`), matched by the next screening. An ' +
          '`external_id` another entry of the watchlist has answers 409 `conflict` with that `entry_id`. Who added it is the caller. Audited ' +
          '(ids, never names); emits `watchlist.changed`.',
        params: WatchlistParams,
        body: EntryBody,
        response: { 201: Type.Ref('WatchlistEntry') },
      },
    },
    async (request, reply) => {
      const entry = await service.addEntry(auditContextOf(request), request.params.id, request.body);
      return reply.code(201).header('location', `/api/v1/watchlists/${entry.watchlistId}/entries/${entry.id}`).send(presentEntry(entry, new Date()));
    },
  );

  api.get(
    '/watchlists/:id/entries',
    {
      config: { tier: 'defense', permission: 'read', auditRead: { action: 'watchlist_entry.listed', target: 'watchlist_entry', list: true } },
      schema: {
        tags: TAGS,
        summary: "List a watchlist's entries",
        description:
          'In the order they were added, with cursor pages and filters: `q` (a name contains), `severity`, `type`, `status`, `external_id`, ' +
          '`updated_after` (what changed since you last looked). Without `status`, entries not removed. All of them at once, as CSV or JSON: `GET …/entries/export`.',
        params: WatchlistParams,
        querystring: EntriesQuery,
        response: { 200: pageOf(Type.Ref('WatchlistEntry'), 'A page of entries.') },
      },
    },
    async (request) => {
      const { limit = 50, cursor, q, severity, type, status, external_id: externalId, updated_after: updatedAfter } = request.query;
      const afterId = cursor ? decodeCursor(cursor, 'the entry list', isIdPosition).i : undefined;
      const filters = {
        ...(q && { q }),
        ...(severity && { severity }),
        ...(type && { type }),
        ...(status && { status }),
        ...(externalId && { externalId }),
        ...(updatedAfter && { updatedAfter: new Date(updatedAfter) }),
      };
      const rows = await service.listEntries(auditContextOf(request), request.params.id, filters, { limit: limit + 1, ...(afterId && { afterId }) });
      const now = new Date();
      return cursorPage(
        rows,
        limit,
        (entry) => presentEntry(entry, now),
        (entry) => ({ i: entry.id }),
      );
    },
  );

  api.get(
    '/watchlists/:id/entries/:entry_id',
    {
      config: { tier: 'defense', permission: 'read', auditRead: { action: 'watchlist_entry.viewed', target: 'watchlist', recordedByHandler: true } },
      schema: {
        tags: TAGS,
        summary: 'Get a watchlist entry',
        description: 'Also a removed one (`status: removed`), as the versions that held it name it.',
        params: EntryParams,
        response: { 200: Type.Ref('WatchlistEntry') },
      },
    },
    async (request) => {
      const context = auditContextOf(request);
      const entry = await service.getEntry(context, request.params.id, request.params.entry_id);
      reads.record(context, {
        action: 'watchlist_entry.viewed',
        target: { type: 'watchlist_entry', id: entry.id },
        details: { watchlist_id: entry.watchlistId },
      });
      return presentEntry(entry, new Date());
    },
  );

  api.patch(
    '/watchlists/:id/entries/:entry_id',
    {
      config: { tier: 'defense', permission: 'operate', problems: ['conflict'] },
      schema: {
        tags: TAGS,
        summary: 'Change a watchlist entry',
        description:
          'Changes the fields given (a list field is replaced whole; null clears `external_id` or `expires_at`), checked as the whole entry will ' +
          'stand. A change is a version (`entries_changed`) and the entry keeps its id; sending what it holds changes nothing. A removed entry ' +
          'answers 409 `conflict`. Audited; emits `watchlist.changed`.',
        params: EntryParams,
        body: EntryPatchBody,
        response: { 200: Type.Ref('WatchlistEntry') },
      },
    },
    async (request) => presentEntry(await service.updateEntry(auditContextOf(request), request.params.id, request.params.entry_id, request.body), new Date()),
  );

  api.delete(
    '/watchlists/:id/entries/:entry_id',
    {
      config: { tier: 'defense', permission: 'operate' },
      schema: {
        tags: TAGS,
        summary: 'Remove a watchlist entry',
        description:
          'It stops matching at once; it stays readable with `removed_at` and `status: removed`, for the versions that held it. A version ' +
          '(`entries_removed`); removing it again changes nothing. Audited; emits `watchlist.changed`.',
        params: EntryParams,
        response: { 200: Type.Ref('WatchlistEntry') },
      },
    },
    async (request) => presentEntry(await service.removeEntry(auditContextOf(request), request.params.id, request.params.entry_id), new Date()),
  );
}
