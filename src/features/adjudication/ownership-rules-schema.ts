/**
 * The rules' `ownership` section: whether ownership checks are kept on record, and which stored
 * determinations open an adjudication case (POST /ownership/check).
 */
import { Type } from 'typebox';
import { enumOf } from '../../http/text-fields.ts';
import { DEFAULT_RULES, OWNERSHIP_STATUSES } from '../cases/rules.ts';

export const ownershipRules = Type.Object(
  {
    store: Type.Optional(
      enumOf(
        ['always', 'on_request'] as const,
        '`always`: every ownership check is stored as a determination on record (GET /ownership/checks). `on_request` (the default): only a check sent with `store: true`.',
      ),
    ),
    open_case_on: Type.Optional(
      Type.Array(enumOf(OWNERSHIP_STATUSES, 'A determination status.'), {
        maxItems: OWNERSHIP_STATUSES.length,
        description:
          `A stored determination with one of these statuses opens an adjudication case for its target, and a re-evaluation that changes a determination to one of them reopens it (default \`${DEFAULT_RULES.ownership.open_case_on.join('`, `')}\`). ` +
          '`blocked`: OFAC 50 Percent Rule; `restricted`: BIS Affiliates Rule (not blocked); `indeterminate`: unknown stakes keep either rule from deciding; `clear`: neither rule reaches the target. Empty: never.',
      }),
    ),
  },
  { additionalProperties: false, examples: [DEFAULT_RULES.ownership] },
);
