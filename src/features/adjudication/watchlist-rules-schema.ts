/**
 * The rules' `watchlists` section, and the list codes a rule may name: a public list's, or one of
 * the organization's watchlists' (`ORG:<slug>`).
 */
import { Type } from 'typebox';
import { enumOf } from '../../http/text-fields.ts';
import { WATCHLIST_SLUG_PATTERN } from '../../screening/model.ts';
import { DEFAULT_RULES, WATCHLIST_ACTIONS, WATCHLIST_SEVERITIES } from '../cases/rules.ts';

/** A public list's code, or a watchlist's `ORG:<slug>`. */
export const RULE_LIST_CODE = `^(?:[A-Za-z][A-Za-z0-9_]{1,31}|ORG:${WATCHLIST_SLUG_PATTERN})$`;

const ACTION_WORDS =
  '`deny`: the case opens DENIED, decided by the rules and recorded so (a visitor at check-in is denied); with `four_eyes.denied`, the rules’ DENIED ' +
  'waits in `pending_decision` for one person to confirm it and the subject is held meanwhile. `hold`: the case opens OPEN and the subject waits for a ' +
  'decision, as on a public-list match. `review`: a case opens and the subject is not held (a visitor is checked in).';

const action = (severity: string) =>
  Type.Optional(enumOf(WATCHLIST_ACTIONS, `What a match on a \`${severity}\` entry does (default \`${DEFAULT_RULES.watchlists[severity as 'red']}\`).`));

export const watchlistRules = Type.Object(
  Object.fromEntries(WATCHLIST_SEVERITIES.map((s) => [s, action(s)])) as Record<(typeof WATCHLIST_SEVERITIES)[number], ReturnType<typeof action>>,
  {
    additionalProperties: false,
    description:
      "What a match on one of the organization's watchlists does, by the entry's severity. Where a screening has several matches the strictest wins " +
      `(deny, then hold, then review); a public-list match or a country hold always holds. ${ACTION_WORDS}`,
    examples: [{ red: 'deny', orange: 'hold', yellow: 'review' }],
  },
);
