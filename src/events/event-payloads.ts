/**
 * The `data` of each event type, as its emitter writes it (screenings/pipeline.ts,
 * cases/case-opening.ts, cases/determination-case.ts, adjudication/case-service.ts, visitor-sessions/service.ts,
 * workforce/sync.ts, watchlists/version-writes.ts, ownership/reevaluate-check.ts, lists/list-staging.ts and lists/freshness.ts),
 * for the OpenAPI document's `webhooks`. Objects stay open: a receiver must accept fields added
 * later.
 */
import { type TSchema, Type } from 'typebox';
import { type EventType, TEST_EVENT_TYPE } from './event-types.ts';

const id = (prefix: string, description: string) => Type.String({ pattern: `^${prefix}_[0-9a-z]{26}$`, description });
const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const count = (description: string) => Type.Integer({ minimum: 0, description });
const SESSION = {
  session_id: id('ses', 'The visitor session.'),
  status: Type.String({ description: 'Its status now.' }),
  site: nullable(Type.String({ description: 'The site, when the check-in named one.' })),
};
const LIST = Type.String({ description: 'The list, e.g. `OFAC_SDN`.' });
const determinationStatus = (description: string) =>
  Type.Union([Type.Literal('blocked'), Type.Literal('restricted'), Type.Literal('indeterminate'), Type.Literal('clear')], { description });

const payload = (properties: Record<string, TSchema>, example: Record<string, unknown>) => Type.Object(properties, { examples: [example] });

export const EVENT_PAYLOADS: Record<EventType | typeof TEST_EVENT_TYPE, TSchema> = {
  'screening.completed': payload(
    {
      screening_id: id('scr', 'The screening.'),
      source: Type.String({ description: 'What ran it: `prescreen`, `checkin`, `vendor`, `workforce` or `monitoring`.' }),
      outcome: Type.Union([Type.Literal('clear'), Type.Literal('potential_match')]),
      score: Type.Number({ minimum: 0, maximum: 1, description: 'The best match’s score.' }),
      matches: count('Potential matches.'),
      holds: count('Country holds.'),
      case_id: nullable(id('case', 'The case opened for it; null when none.')),
      reference: nullable(Type.String({ description: 'Your reference, as sent.' })),
    },
    {
      screening_id: 'scr_01jbz4r2c6a1b3d5f7h9k1m3np',
      source: 'prescreen',
      outcome: 'potential_match',
      score: 0.93,
      matches: 2,
      holds: 0,
      case_id: 'case_01jbz4r2c7b2c4e6g8j0k2m4pq',
      reference: 'visit-2026-0042',
    },
  ),
  'visitor.checked_in': payload(SESSION, { session_id: 'ses_01jbz4r2c6a1b3d5f7h9k1m3np', status: 'checked_in', site: 'HQ-1' }),
  'visitor.checked_out': payload(SESSION, { session_id: 'ses_01jbz4r2c6a1b3d5f7h9k1m3np', status: 'checked_out', site: 'HQ-1' }),
  'session.escalated': payload(SESSION, { session_id: 'ses_01jbz4r2c6a1b3d5f7h9k1m3np', status: 'escalated', site: 'HQ-1' }),
  'case.opened': payload(
    {
      case_id: id('case', 'The case.'),
      screening_id: nullable(id('scr', 'The screening that opened it; null for a case about an ownership determination.')),
      ownership_check_id: Type.Optional(id('own', 'The stored ownership determination the case is about (source `ownership`).')),
      source: Type.String({ description: 'What ran the screening (`prescreen`, `checkin`, `vendor`, `workforce`, `rescreen`), or `ownership`.' }),
      status: Type.String({
        description:
          'The case’s status: `OPEN`, or `ESCALATED` when the rules escalate it at once, or `DENIED` when the rules deny a match on one of the ' +
          'organization’s watchlists outright (its severity; adjudication rules `watchlists`).',
      }),
      priority: Type.String({ description: 'Its priority under the adjudication rules.' }),
      reopened: Type.Optional(Type.Literal(true, { description: 'A decided case a new screening, or a changed ownership determination, opened again.' })),
    },
    { case_id: 'case_01jbz4r2c7b2c4e6g8j0k2m4pq', screening_id: 'scr_01jbz4r2c6a1b3d5f7h9k1m3np', source: 'prescreen', status: 'OPEN', priority: 'high' },
  ),
  'case.disposition_applied': payload(
    {
      case_id: id('case', 'The case.'),
      screening_id: nullable(id('scr', 'Its screening; null for a case about an ownership determination.')),
      ownership_check_id: Type.Optional(id('own', 'The ownership determination it is about (source `ownership`).')),
      disposition: Type.Union([Type.Literal('CLEARED'), Type.Literal('ESCALATED'), Type.Literal('DENIED')]),
      status: Type.String({ description: 'The case’s status now.' }),
    },
    { case_id: 'case_01jbz4r2c7b2c4e6g8j0k2m4pq', screening_id: 'scr_01jbz4r2c6a1b3d5f7h9k1m3np', disposition: 'CLEARED', status: 'CLEARED' },
  ),
  'workforce.sync_completed': payload(
    {
      sync_id: id('wfs', 'The sync.'),
      mode: Type.String({ description: '`full` or `partial`.' }),
      ...Object.fromEntries(
        ['created', 'updated', 'unchanged', 'deactivated', 'screened', 'potential_matches', 'cases_opened'].map((name) => [
          name,
          count(`Profiles ${name.replace('_', ' ')}.`),
        ]),
      ),
    },
    {
      sync_id: 'wfs_01jbz4r2c6a1b3d5f7h9k1m3np',
      mode: 'full',
      created: 3,
      updated: 1,
      unchanged: 296,
      deactivated: 0,
      screened: 4,
      potential_matches: 0,
      cases_opened: 0,
    },
  ),
  'watchlist.changed': payload(
    {
      watchlist_id: id('wl', 'The watchlist.'),
      slug: Type.String({ description: 'Its slug: its matches are labelled `ORG:<slug>`.' }),
      version: Type.Integer({ minimum: 1, description: 'The version this change made.' }),
      change: Type.String({ description: 'What the version did (see the event’s description).' }),
      added: count('Entries added.'),
      changed: count('Entries changed.'),
      removed: count('Entries removed.'),
      entry_count: count('The watchlist’s entries after it.'),
    },
    {
      watchlist_id: 'wl_01jbz4r2c6a1b3d5f7h9k1m3np',
      slug: 'do-not-admit',
      version: 8,
      change: 'entries_added',
      added: 1,
      changed: 0,
      removed: 0,
      entry_count: 253,
    },
  ),
  'ownership.changed': payload(
    {
      determination_id: id('own', 'The new determination, made by the re-evaluation.'),
      previous_determination_id: id('own', 'The determination it supersedes.'),
      status: determinationStatus('The new determination’s status.'),
      previous_status: determinationStatus('The superseded determination’s status.'),
      target_id: Type.String({ description: 'Your id for the target party, as sent in `target`.' }),
      list: LIST,
      list_version_id: Type.String({ description: 'The list version whose change led to the re-evaluation.' }),
      case_id: nullable(
        id(
          'case',
          'The adjudication case that follows the target: opened or reopened when the rules’ `ownership.open_case_on` names the new status; null when none.',
        ),
      ),
    },
    {
      determination_id: 'own_01kaq3m2c5v8x0f3r6t9w2y5b8',
      previous_determination_id: 'own_01kaa7n4d2b6c8e0g2j4k6m8pq',
      status: 'blocked',
      previous_status: 'clear',
      target_id: 'supplier-4711',
      list: 'OFAC_SDN',
      list_version_id: 'lv_01jbz4r2c6a1b3d5f7h9k1m3np',
      case_id: 'case_01kaq3m2c7b2c4e6g8j0k2m4pq',
    },
  ),
  'lists.updated': payload(
    {
      list: LIST,
      version_id: Type.String({ description: 'The new version.' }),
      previous_version_id: nullable(Type.String({ description: 'The version it replaced.' })),
      published_on: nullable(Type.String({ description: 'The publisher’s date.' })),
      entity_count: count('Entries in the new version.'),
      added: count('Entries added.'),
      removed: count('Entries removed.'),
      changed: count('Entries changed.'),
    },
    {
      list: 'OFAC_SDN',
      version_id: 'lv_01jbz4r2c6a1b3d5f7h9k1m3np',
      previous_version_id: 'lv_01jbz4r2c5a1b3d5f7h9k1m3np',
      published_on: '2026-11-19',
      entity_count: 18234,
      added: 12,
      removed: 3,
      changed: 7,
    },
  ),
  'lists.stale': payload(
    {
      list: LIST,
      version_id: Type.String({ description: 'The active version.' }),
      confirmed_at: nullable(Type.String({ format: 'date-time', description: 'Its last successful check.' })),
      max_age_hours: Type.Number({ description: 'Its maximum age (LISTS_MAX_AGE).' }),
    },
    { list: 'UN_SC', version_id: 'lv_01jbz4r2c6a1b3d5f7h9k1m3np', confirmed_at: '2026-11-17T06:00:00.000Z', max_age_hours: 72 },
  ),
  'lists.update_failed': payload(
    {
      source: Type.String({ description: 'The source.' }),
      lists: Type.Array(LIST, { description: 'The lists it provides.' }),
      consecutive_failures: count('Checks failed in a row.'),
      error: nullable(Type.String({ description: 'What the last check found, naming the URL.' })),
      last_success_at: nullable(Type.String({ format: 'date-time', description: 'Its last successful check.' })),
    },
    {
      source: 'UN_SC',
      lists: ['UN_SC'],
      consecutive_failures: 3,
      error: 'https://scsanctions.un.org/resources/xml/en/consolidated.xml answered 503',
      last_success_at: '2026-11-20T06:00:00.000Z',
    },
  ),
  'lists.recovered': payload(
    {
      list: Type.Optional(LIST),
      version_id: Type.Optional(Type.String({ description: 'The active version (a list that was stale).' })),
      confirmed_at: Type.Optional(nullable(Type.String({ format: 'date-time', description: 'When it was confirmed current (a list that was stale).' }))),
      source: Type.Optional(Type.String({ description: 'The source that answered again.' })),
      lists: Type.Optional(Type.Array(LIST, { description: 'Its lists.' })),
      last_success_at: Type.Optional(nullable(Type.String({ format: 'date-time', description: 'Its last successful check (a source that answered again).' }))),
    },
    { list: 'UN_SC', version_id: 'lv_01jbz4r2c6a1b3d5f7h9k1m3np', confirmed_at: '2026-11-20T09:00:00.000Z' },
  ),
  [TEST_EVENT_TYPE]: payload({ endpoint_id: id('we', 'The endpoint the test was sent to.') }, { endpoint_id: 'we_01jbz4r2c6a1b3d5f7h9k1m3np' }),
};

/** The example of an event type's `data`, as the OpenAPI document shows it. */
export const payloadExample = (type: EventType | typeof TEST_EVENT_TYPE): Record<string, unknown> =>
  (EVENT_PAYLOADS[type] as { examples: Record<string, unknown>[] }).examples[0] as Record<string, unknown>;
