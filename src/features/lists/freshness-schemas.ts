/**
 * How current each list is, as GET /api/v1/lists documents it: the fields each version gains
 * (src/lists/freshness-view.ts presents them) and each configured source's health.
 */
import { Type } from 'typebox';

const SOURCE_NAMES = 'ofacSdn, ofacCons, unSc, csl, bisDpl or ukFcdo';
const NOT_YET = 'Null for the few seconds between an import by another process and this service reading its confirmation (LISTS_RELOAD_SECONDS).';
const DateTimeOrNull = (description: string, example: string | null) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description, examples: [example] });

export const ListFreshnessFields = {
  confirmed_at: DateTimeOrNull(
    `The list's last successful check: a check of its source that found it unchanged, or an import. Its age counts from here, not from its publication. ${NOT_YET}`,
    '2026-11-24T05:00:12.000Z',
  ),
  age_hours: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: `Hours since \`confirmed_at\`, to a tenth. ${NOT_YET}`, examples: [1.5] }),
  max_age_hours: Type.Union([Type.Number(), Type.Null()], {
    description: `The age past which the list is stale (LISTS_MAX_AGE; by default 48 hours for OFAC's lists, 72 for the others). ${NOT_YET}`,
    examples: [48],
  }),
  stale: Type.Boolean({
    description: 'Past its maximum age: screenings still run against it, and each records that it did (`lists_stale`, `stale_lists`).',
    examples: [false],
  }),
  source: Type.Union([Type.String(), Type.Null()], {
    description: `The configured source that is its authority (${SOURCE_NAMES}); null for a list only ever imported by hand.`,
    examples: ['ofacSdn'],
  }),
  source_failing: Type.Boolean({
    description: 'Its source failed its last LISTS_FAILED_CHECKS_BEFORE_DEGRADED checks; the list may still be within its age (then it is not stale).',
    examples: [false],
  }),
};

export const SourceHealthSchema = Type.Object(
  {
    source: Type.String({ description: `The source: ${SOURCE_NAMES}.`, examples: ['unSc'] }),
    label: Type.String({ description: 'Its name in words.', examples: ['UN Security Council Consolidated List'] }),
    lists: Type.Array(Type.String(), { description: 'The lists it is the authority for.', examples: [['UN_SC']] }),
    last_attempt_at: DateTimeOrNull('Its last check, successful or not; null before the first.', '2026-11-24T05:00:00.000Z'),
    last_success_at: DateTimeOrNull('Its last successful check; null when none succeeded yet.', '2026-11-24T05:00:12.000Z'),
    consecutive_failures: Type.Integer({ minimum: 0, description: 'Checks in a row that failed; 0 after a success.', examples: [0] }),
    last_error: Type.Union([Type.String(), Type.Null()], {
      description: 'What its last failed check found, naming the URL (without its query or credentials); null after a success.',
      examples: ['https://scsanctions.un.org/resources/xml/en/consolidated.xml: the server answered 503 Service Unavailable'],
    }),
    failing: Type.Boolean({ description: 'It failed its last LISTS_FAILED_CHECKS_BEFORE_DEGRADED checks: the service is degraded.', examples: [false] }),
  },
  { description: 'A configured list source and how its checks are going.' },
);
