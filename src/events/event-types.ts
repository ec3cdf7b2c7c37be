/**
 * The events Gatehouse tells other systems about: one list, shared by the features that emit
 * them (through `recordEvent`), the webhook endpoints that subscribe to them and the events feed.
 * Names are dot-delimited (`resource.happened`), as Standard Webhooks recommends.
 *
 * Payloads are thin: ids, statuses, counts and timestamps, never names or other personal data.
 * A receiver fetches details through the API, where the access is authenticated and audited.
 */

/** Each type and what its `data` carries, as the OpenAPI description shows it. */
export const EVENT_TYPE_DESCRIPTIONS = {
  'screening.completed':
    'A screening was stored: `screening_id`, `source`, `outcome` (`clear` or `potential_match`), `score`, `matches` and `holds` (counts: a country hold ' +
    'makes a `potential_match` with `matches: 0`), `case_id` (null when no case opened) and your `reference`.',
  'visitor.checked_in': 'A visitor was checked in: `session_id`, `status` (`checked_in`) and `site`; when is the event’s `timestamp`.',
  'visitor.checked_out': 'A visitor was checked out: `session_id`, `status` (`checked_out`) and `site`; when is the event’s `timestamp`.',
  'session.escalated': 'A visitor session was escalated: `session_id`, `status` (`escalated`) and `site`; when is the event’s `timestamp`.',
  'case.opened': 'An adjudication case was opened for a potential match or a country hold: the case id and the screening id.',
  'case.disposition_applied': 'A disposition (CLEARED, ESCALATED or DENIED) was applied to a case: the case id and the disposition.',
  'workforce.sync_completed': 'A workforce sync finished: its id and counts.',
  'watchlist.changed':
    'A new version of one of the organization’s watchlists: `watchlist_id`, `slug`, `version`, `change` (`created`, `updated`, `deleted`, ' +
    '`entries_added`, `entries_changed`, `entries_removed`, `entries_upserted` or `entries_replaced`), the counts `added`, `changed`, `removed`, ' +
    'and `entry_count`. Fetch the version (`GET /api/v1/watchlists/{id}/versions/{version}`) for the entry ids.',
  'ownership.changed':
    'A stored ownership determination was re-evaluated after a list version designated or removed one of its parties, and the verdict changed: ' +
    '`determination_id` (the new determination) and `previous_determination_id` (the one it supersedes), `status` and `previous_status` ' +
    '(`blocked`, `restricted`, `indeterminate` or `clear`), your `target_id`, and the `list` and `list_version_id` that changed it. ' +
    'Fetch the determination (`GET /api/v1/ownership/checks/{id}`) for the graph, the paths and the matches.',
  'lists.updated':
    'A new version of a restricted-party list became active: `list`, `version_id`, `previous_version_id`, `published_on`, `entity_count` and ' +
    'the counts `added`, `removed`, `changed`. Lists are shared, so every organization receives its own copy of this event.',
  'lists.stale':
    'A list went past its maximum age without a successful check (screenings still run against it, and say so): `list`, `version_id`, ' +
    '`confirmed_at` (its last successful check), `max_age_hours`. Sent once until the list recovers; to every organization.',
  'lists.update_failed':
    'A list source failed as many checks in a row as the service tolerates (LISTS_FAILED_CHECKS_BEFORE_DEGRADED): `source`, `lists`, ' +
    '`consecutive_failures`, `error` (what the last check found, naming the URL), `last_success_at`. Sent once until it recovers; to every organization.',
  'lists.recovered':
    'A stale list was confirmed current again (`list`, `confirmed_at`), or a failing source answered again (`source`, `lists`). To every organization.',
} as const;

export type EventType = keyof typeof EVENT_TYPE_DESCRIPTIONS;

export const EVENT_TYPES = Object.keys(EVENT_TYPE_DESCRIPTIONS) as EventType[];

/**
 * Sent only by `POST /webhook-endpoints/{id}/test`, to that one endpoint. It is not in
 * `EVENT_TYPES`: nobody subscribes to it.
 */
export const TEST_EVENT_TYPE = 'webhook.test';

/** Types no single organization causes: recorded once per organization (see outbox.ts). */
export const SHARED_EVENT_TYPES = ['lists.updated', 'lists.stale', 'lists.update_failed', 'lists.recovered'] as const satisfies readonly EventType[];

export const isEventType = (value: string): value is EventType => Object.hasOwn(EVENT_TYPE_DESCRIPTIONS, value);
