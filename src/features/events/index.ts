/**
 * The organization's events, by cursor, oldest or newest first: what an automation tool polls
 * (newest first, de-duplicating by id, as Zapier's polling triggers do), replays after an outage
 * (oldest first), and offers as sample data for a REST-hook subscription; and one event by id.
 * Each event is exactly the body its webhook deliveries carry.
 */
import { Type } from 'typebox';
import { eventEnvelope } from '../../events/event-envelope.ts';
import { payloadExample } from '../../events/event-payloads.ts';
import { EVENT_TYPE_DESCRIPTIONS, EVENT_TYPES, TEST_EVENT_TYPE } from '../../events/event-types.ts';
import { findEvent, listEvents } from '../../events/outbox.ts';
import { auditContextOf } from '../../http/audit-context.ts';
import { decodeCursor, isIdPosition } from '../../http/cursor.ts';
import { AppError } from '../../http/errors.ts';
import type { Feature } from '../../http/feature.ts';
import { cursorPage } from '../../http/list-page.ts';

const KNOWN_TYPES = [...EVENT_TYPES, TEST_EVENT_TYPE];

const EventsQuery = Type.Object(
  {
    type: Type.Optional(
      Type.Array(Type.Union(KNOWN_TYPES.map((type) => Type.Literal(type))), {
        maxItems: KNOWN_TYPES.length,
        description: 'Only events of these types (repeat the parameter for several: `?type=case.opened&type=case.disposition_applied`).',
      }),
    ),
    order: Type.Optional(
      Type.Union([Type.Literal('oldest'), Type.Literal('newest')], {
        default: 'oldest',
        description:
          '`oldest` first (to replay, or to process each event once in order) or `newest` first (to show the latest, or to poll and de-duplicate by id).',
      }),
    ),
    cursor: Type.Optional(Type.String({ maxLength: 300, description: 'The `next_cursor` of the page before; the next page keeps its order.' })),
    after: Type.Optional(
      Type.String({
        pattern: '^evt_[0-9a-z]{26}$',
        deprecated: true,
        description:
          'Deprecated, kept working: the id of the last event you processed, oldest first. Use `cursor` (the `next_cursor` of the page before), as every list does. ' +
          'Ids sort by creation time, and those recorded by one service process in the order it recorded them, even within a millisecond.',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);

const EventSchema = Type.Object(
  {
    object: Type.Literal('event'),
    id: Type.String({ description: 'The event id; also the `webhook-id` header of its deliveries.' }),
    type: Type.String({ description: `One of ${EVENT_TYPES.map((t) => `\`${t}\``).join(', ')}, or \`${TEST_EVENT_TYPE}\` for a test.` }),
    timestamp: Type.String({ format: 'date-time', description: 'When it happened.' }),
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: `Thin: ids, statuses, counts and times, never names.\n- ${EVENT_TYPES.map((t) => `\`${t}\`: ${EVENT_TYPE_DESCRIPTIONS[t]}`).join('\n- ')}`,
    }),
  },
  {
    $id: 'Event',
    examples: [
      {
        object: 'event',
        id: 'evt_01jbz4r2c8n5p7q9s1t3v5w7xy',
        type: 'screening.completed',
        timestamp: '2026-11-20T09:31:12.204Z',
        data: payloadExample('screening.completed'),
      },
    ],
  },
);

const isEventPosition = (value: unknown): value is { i: string; o: 'oldest' | 'newest' } =>
  isIdPosition(value) && /^evt_[0-9a-z]{26}$/.test(value.i) && ['oldest', 'newest'].includes((value as { o?: unknown }).o as string);

const events: Feature = {
  name: 'events',
  async register(api, { db }) {
    api.addSchema(EventSchema);
    api.get(
      '/events',
      {
        config: { tier: 'defense', permission: 'read' },
        schema: {
          tags: ['webhooks'],
          summary: "List the organization's events",
          description:
            'Oldest first unless `order=newest`; pages by `cursor` (the `next_cursor` of the page before) while `has_more`. To process every event once, ' +
            'read oldest first and keep the last `next_cursor`; to replay after an outage, start from the last event you are sure of. To poll for the latest, ' +
            'read newest first and de-duplicate by `id`. Ids are given when an event is recorded and events become visible when their transaction commits, ' +
            'so a long transaction can show an event a moment after one with a greater id: a poller that must miss none starts a few seconds back and ' +
            'de-duplicates by id, as a webhook receiver does by `webhook-id`.',
          querystring: EventsQuery,
          response: {
            200: Type.Object({
              object: Type.Literal('list'),
              data: Type.Array(Type.Ref('Event')),
              has_more: Type.Boolean(),
              next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last.' }),
            }),
          },
        },
      },
      async (request) => {
        const { limit = 20, after, cursor, type } = request.query;
        const position = cursor ? decodeCursor(cursor, 'the events feed', isEventPosition) : undefined;
        // A cursor carries its order, so a page never turns round halfway through a walk.
        const newestFirst = position ? position.o === 'newest' : request.query.order === 'newest';
        const from = position?.i ?? after;
        const rows = await db.withTenant(auditContextOf(request).actor, (trx) =>
          listEvents(trx, { limit: limit + 1, newestFirst, ...(from && { from }), ...(type && { types: type }) }),
        );
        return cursorPage(rows, limit, eventEnvelope, (row) => ({ i: row.id, o: newestFirst ? 'newest' : 'oldest' }));
      },
    );

    api.get(
      '/events/:id',
      {
        config: { tier: 'defense', permission: 'read' },
        schema: {
          tags: ['webhooks'],
          summary: 'Get an event',
          description: 'The event as its webhook deliveries carry it: what a receiver fetches to check a delivery it doubts, by its `webhook-id`.',
          params: Type.Object({
            id: Type.String({ pattern: '^evt_[0-9a-z]{26}$', description: 'The event id, `evt_…`: the `webhook-id` of its deliveries.' }),
          }),
          response: { 200: Type.Ref('Event') },
        },
      },
      async (request) => {
        const event = await db.withTenant(auditContextOf(request).actor, (trx) => findEvent(trx, request.params.id));
        if (!event) throw new AppError('not_found', `There is no event ${request.params.id} in your organization.`);
        return eventEnvelope(event);
      },
    );
  },
};

export default events;
