/**
 * The organization's events, oldest first from a cursor: what an automation tool polls, or
 * replays after an outage, and what a REST-hook subscription offers as sample data. Each event is
 * exactly the body its webhook deliveries carry.
 */
import { Type } from 'typebox';
import { EVENT_TYPE_DESCRIPTIONS, EVENT_TYPES, TEST_EVENT_TYPE } from '../../events/event-types.ts';
import { eventEnvelope } from '../../events/event-envelope.ts';
import { listEvents } from '../../events/outbox.ts';
import { auditContextOf } from '../../http/audit-context.ts';
import type { Feature } from '../../http/feature.ts';
import { listPage } from '../../http/list-page.ts';

const KNOWN_TYPES = [...EVENT_TYPES, TEST_EVENT_TYPE];

const EventsQuery = Type.Object(
  {
    type: Type.Optional(
      Type.Array(Type.Union(KNOWN_TYPES.map((type) => Type.Literal(type))), {
        maxItems: KNOWN_TYPES.length,
        description: 'Only events of these types (repeat the parameter for several: `?type=case.opened&type=case.disposition_applied`).',
      }),
    ),
    after: Type.Optional(
      Type.String({
        pattern: '^evt_[0-9a-z]{26}$',
        description: 'Only events after this one: the id of the last event you processed. Ids sort by creation time, and those recorded by one service process in the order it recorded them, even within a millisecond.',
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
        data: { screening_id: 'scr_01jbz4r2c6a1b3d5f7h9k1m3np', source: 'prescreen', outcome: 'potential_match', score: 0.93, matches: 2, holds: 0, case_id: 'case_01jbz4r2c7b2c4e6g8j0k2m4pq', reference: 'visit-2026-0042' },
      },
    ],
  },
);

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
            'Oldest first. To poll, pass the id of the last event you processed as `after` and repeat while `has_more`. To replay after an outage, ' +
            'start from the last event you are sure of. Ids are given when an event is recorded and events become visible when their transaction ' +
            'commits, so a long transaction can show an event a moment after one with a greater id: a poller that must miss none passes as `after` ' +
            'an event a few seconds older than its last one, and de-duplicates by id, as a webhook receiver does by `webhook-id`.',
          querystring: EventsQuery,
          response: { 200: Type.Object({ object: Type.Literal('list'), data: Type.Array(Type.Ref('Event')), has_more: Type.Boolean() }) },
        },
      },
      async (request) => {
        const { limit = 20, after, type } = request.query;
        const rows = await db.withTenant(auditContextOf(request).actor, (trx) =>
          listEvents(trx, { limit: limit + 1, ...(after && { after }), ...(type && { types: type }) }),
        );
        return listPage(rows, limit, eventEnvelope);
      },
    );
  },
};

export default events;
