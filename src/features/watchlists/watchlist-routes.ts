/**
 * The routes of watchlists themselves and their versions. Creating, changing and deleting a
 * watchlist is an administrator's (it decides what the door screens against); reading is
 * everyone's. Defense tier: a watchlist is the organization's own "do not admit" list, screened
 * where its door screens.
 */
import { Type } from 'typebox';
import { auditContextOf } from '../../http/audit-context.ts';
import { decodeCursor, isIdPosition } from '../../http/cursor.ts';
import type { Api } from '../../http/feature.ts';
import { cursorPage } from '../../http/list-page.ts';
import { pageOf, VersionsQuery, WatchlistsQuery } from './list-schemas.ts';
import { presentVersion, presentVersionSummary, presentWatchlist } from './present.ts';
import type { WatchlistService } from './service.ts';
import {
  CreateWatchlistBody,
  DeletedWatchlistSchema,
  UpdateWatchlistBody,
  VersionParams,
  VersionSchema,
  VersionSummarySchema,
  WatchlistParams,
} from './watchlist-schemas.ts';

const TAGS = ['watchlists'];
const isVersionPosition = (value: unknown): value is { v: number } =>
  typeof value === 'object' && value !== null && Number.isInteger((value as { v?: unknown }).v);

export function registerWatchlistRoutes(api: Api, service: WatchlistService) {
  api.post(
    '/watchlists',
    {
      config: { tier: 'defense', permission: 'administer', idempotent: true, problems: ['conflict'] },
      schema: {
        tags: TAGS,
        summary: 'Create a watchlist',
        description:
          'An organization’s own list of people, organizations and vessels (a terminated employee, a person who made threats, a vendor under ' +
          'investigation, a list with no machine-readable feed), screened beside the public lists by prescreen, check-in, vendors, workforce, ' +
          'ownership name screening and monitoring, with the same matching, and its matches labelled `ORG:<slug>`. Its creation is version 1. ' +
          'A slug a live watchlist of the organization has answers 409 `conflict`. Audited; emits `watchlist.changed`.',
        body: CreateWatchlistBody,
        response: { 201: Type.Ref('Watchlist') },
      },
    },
    async (request, reply) => {
      const watchlist = await service.create(auditContextOf(request), request.body);
      return reply.code(201).header('location', `/api/v1/watchlists/${watchlist.id}`).send(presentWatchlist(watchlist));
    },
  );

  api.get(
    '/watchlists',
    {
      config: { tier: 'defense', permission: 'read' },
      schema: {
        tags: TAGS,
        summary: "List the organization's watchlists",
        description: 'Live watchlists (not deleted), in creation order, with cursor pages.',
        querystring: WatchlistsQuery,
        response: { 200: pageOf(Type.Ref('Watchlist'), 'A page of watchlists.') },
      },
    },
    async (request) => {
      const { limit = 50, cursor, active } = request.query;
      const afterId = cursor ? decodeCursor(cursor, 'the watchlist list', isIdPosition).i : undefined;
      const rows = await service.list(auditContextOf(request), active === undefined ? {} : { active }, { limit: limit + 1, ...(afterId && { afterId }) });
      return cursorPage(rows, limit, presentWatchlist, (w) => ({ i: w.id }));
    },
  );

  api.get(
    '/watchlists/:id',
    {
      config: { tier: 'defense', permission: 'read' },
      schema: {
        tags: TAGS,
        summary: 'Get a watchlist',
        description: 'A deleted watchlist answers 404.',
        params: WatchlistParams,
        response: { 200: Type.Ref('Watchlist') },
      },
    },
    async (request) => presentWatchlist(await service.get(auditContextOf(request), request.params.id)),
  );

  api.patch(
    '/watchlists/:id',
    {
      config: { tier: 'defense', permission: 'administer', problems: ['conflict'] },
      schema: {
        tags: TAGS,
        summary: 'Change a watchlist',
        description:
          'Changes its `slug` (its matches are labelled with the new one from now on), `name`, `description`, `threshold` or `active` (an inactive ' +
          'watchlist matches nothing). A change is a version (`updated`); sending the values it has changes nothing and makes none. Audited; emits `watchlist.changed`.',
        params: WatchlistParams,
        body: UpdateWatchlistBody,
        response: { 200: Type.Ref('Watchlist') },
      },
    },
    async (request) => presentWatchlist(await service.update(auditContextOf(request), request.params.id, request.body)),
  );

  api.delete(
    '/watchlists/:id',
    {
      config: { tier: 'defense', permission: 'administer' },
      schema: {
        tags: TAGS,
        summary: 'Delete a watchlist',
        description:
          'It stops matching at once and answers 404 from then on; its entries and versions are kept (a case that cites an entry still explains it), ' +
          'and its slug is free for a new watchlist. The deletion is a version (`deleted`). Audited; emits `watchlist.changed`.',
        params: WatchlistParams,
        response: { 200: DeletedWatchlistSchema },
      },
    },
    async (request) => {
      const deleted = await service.remove(auditContextOf(request), request.params.id);
      return { object: 'watchlist' as const, id: deleted.id, deleted: true as const, version: deleted.version };
    },
  );

  api.get(
    '/watchlists/:id/versions',
    {
      config: { tier: 'defense', permission: 'read' },
      schema: {
        tags: TAGS,
        summary: "List a watchlist's versions",
        description:
          'Newest first: every change to the watchlist or its entries, with what it did (`change`), how many entries it added, changed and removed, ' +
          'the SHA-256 of what the watchlist held after it, who made it and when. The entry ids are on each version (`GET …/versions/{version}`).',
        params: WatchlistParams,
        querystring: VersionsQuery,
        response: { 200: pageOf(VersionSummarySchema, 'A page of versions, newest first.') },
      },
    },
    async (request) => {
      const { limit = 50, cursor } = request.query;
      const before = cursor ? decodeCursor(cursor, 'the version list', isVersionPosition).v : undefined;
      const rows = await service.versions(auditContextOf(request), request.params.id, {
        limit: limit + 1,
        ...(before !== undefined && { beforeVersion: before }),
      });
      return cursorPage(rows, limit, presentVersionSummary, (v) => ({ v: v.version }));
    },
  );

  api.get(
    '/watchlists/:id/versions/:version',
    {
      config: { tier: 'defense', permission: 'read' },
      schema: {
        tags: TAGS,
        summary: 'Get a version of a watchlist',
        description: 'What the version did, with the ids of the entries it added, changed and removed.',
        params: VersionParams,
        response: { 200: VersionSchema },
      },
    },
    async (request) => presentVersion(await service.version(auditContextOf(request), request.params.id, request.params.version)),
  );
}
