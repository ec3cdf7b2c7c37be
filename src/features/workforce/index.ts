/**
 * Workforce (Enterprise): bulk profiles in from an HR system, screened when new or changed, and
 * listed with their latest outcome. Continuous monitoring re-screens them when lists change.
 */
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { auditContextOf } from '../../http/audit-context.ts';
import { decodeCursor, isIdPosition } from '../../http/cursor.ts';
import { AppError } from '../../http/errors.ts';
import type { Feature } from '../../http/feature.ts';
import { requireUtf8 } from '../../http/json-body.ts';
import { parseJsonStream } from '../../http/json-stream.ts';
import { cursorPage } from '../../http/list-page.ts';
import type { ScreeningService } from '../screenings/service.ts';
import { cleanProfiles } from './profile-input.ts';
import {
  MAX_PROFILES,
  ProfileListSchema,
  ProfilesQuery,
  ShrinkRefusedResponse,
  SYNC_BODY_LIMIT_BYTES,
  SYNC_RUNNING_MS,
  SyncBody,
  SyncIdParams,
  SyncSchema,
} from './schemas.ts';
import { SHRINK_MIN_DEACTIVATIONS } from './shrink-guard.ts';
import { findSync, listProfiles, type ProfileRow, type SyncRow } from './store.ts';
import { runSync } from './sync.ts';

const TAG = ['workforce'];

const presentSync = (sync: SyncRow) => ({
  ...sync,
  object: 'workforce_sync' as const,
  started_at: sync.started_at.toISOString(),
  finished_at: sync.finished_at?.toISOString() ?? null,
});

const presentProfile = (row: ProfileRow) => ({
  ...row,
  object: 'workforce_profile' as const,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const workforce: Feature<{ screenings: ScreeningService }> = {
  name: 'workforce',
  async register(api, { config, db }, { screenings }) {
    // This scope's JSON bodies stream: 50,000 profiles are parsed one by one, never held twice.
    api.removeContentTypeParser('application/json');
    api.addContentTypeParser('application/json', (request: FastifyRequest, payload: Readable) => {
      requireUtf8(request.headers['content-type']);
      return parseJsonStream(payload, SYNC_BODY_LIMIT_BYTES);
    });

    api.put(
      '/workforce/sync',
      {
        config: {
          tier: 'enterprise',
          permission: 'operate',
          idempotent: true,
          longRunningMs: SYNC_RUNNING_MS,
          problems: ['sync_shrink_refused', 'lists_unavailable'],
        },
        schema: {
          tags: TAG,
          summary: 'Sync workforce profiles in bulk',
          description: [
            `Up to ${MAX_PROFILES.toLocaleString('en')} profiles and ${SYNC_BODY_LIMIT_BYTES / 2 ** 20} MiB a request (larger: 413), parsed as the body streams in.`,
            'Checked whole first: one bad profile refuses the request with a pointer to each problem (`/profiles/17/country`) and nothing is stored;',
            'an external id may appear once. Profiles are matched on `external_id`. A new or re-activated profile, or one whose name, date of birth,',
            'country or citizenship changed, is screened (potential matches open cases); other changes are stored without screening; the same',
            'payload again changes nothing (`unchanged`). `full` also deactivates active profiles absent from the payload, within a shrink limit:',
            `it may deactivate ${config.workforceShrinkLimitPercent}% of the organization's active profiles (\`WORKFORCE_SHRINK_LIMIT_PERCENT\`), or ${SHRINK_MIN_DEACTIVATIONS} when that is more,`,
            'but never all of them. A sync that would deactivate more is refused before anything is written, with 409 `sync_shrink_refused` naming the counts',
            '(a short payload is likelier a truncated export than a mass departure); `allow_shrink: true` lifts the limit for that request. Profiles are written in',
            'batches: a sync that fails part-way keeps what it wrote and says `failed`, and sending the payload again completes it. Audited; emits `workforce.sync_completed`.',
            `A sync of 50,000 new profiles takes about a minute; the connection is held open for up to ${SYNC_RUNNING_MS / 60_000} minutes. Send an \`Idempotency-Key\`:`,
            'a retry after your client gave up answers 409 `idempotency_key_in_progress` while the sync still runs, and its answer once it is done.',
          ].join(' '),
          body: SyncBody,
          response: { 200: SyncSchema, 409: ShrinkRefusedResponse },
        },
      },
      async (request) => {
        const profiles = cleanProfiles(request.body.profiles, new Date());
        const shrink = { limitPercent: config.workforceShrinkLimitPercent, allowShrink: request.body.allow_shrink ?? false };
        return presentSync(await runSync(db.withTenant, screenings, auditContextOf(request), request.body.mode, profiles, shrink));
      },
    );

    api.get(
      '/workforce/syncs/:id',
      {
        config: { tier: 'enterprise', permission: 'read' },
        schema: {
          tags: TAG,
          summary: 'Get a workforce sync',
          description: 'Its counts and status, as answered.',
          params: SyncIdParams,
          response: { 200: SyncSchema },
        },
      },
      async (request) => {
        const sync = await db.withTenant(auditContextOf(request).actor, (trx) => findSync(trx, request.params.id));
        if (!sync) throw new AppError('not_found', `There is no workforce sync ${request.params.id} in your organization.`);
        return presentSync(sync);
      },
    );

    api.get(
      '/workforce/profiles',
      {
        config: { tier: 'enterprise', permission: 'read', auditRead: { action: 'workforce_profile.listed', target: 'workforce_profile', list: true } },
        schema: {
          tags: TAG,
          summary: 'List workforce profiles with their latest outcome',
          description: 'In creation order, with cursor pages.',
          querystring: ProfilesQuery,
          response: { 200: ProfileListSchema },
        },
      },
      async (request) => {
        const q = request.query;
        const limit = q.limit ?? 50;
        const afterId = q.cursor ? decodeCursor(q.cursor, 'the profile list', isIdPosition).i : undefined;
        const filters = {
          ...(q.status && { status: q.status }),
          ...(q.outcome && { outcome: q.outcome }),
          ...(q.external_id && { externalId: q.external_id }),
        };
        const rows = await db.withTenant(auditContextOf(request).actor, (trx) => listProfiles(trx, filters, afterId, limit + 1));
        return cursorPage(rows, limit, presentProfile, (p) => ({ i: p.id }));
      },
    );
  },
};

export default workforce;
