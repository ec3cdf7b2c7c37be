/**
 * How an answer that screened says whether the lists it ran against were current: `lists_stale`
 * and `stale_lists` (src/lists/stale-at-screening.ts), shared by the screening record and the
 * ownership check's screening summary.
 */
import { Type } from 'typebox';

export const LISTS_STALE_DESCRIPTION =
  'Whether any list consulted was past its maximum age (LISTS_MAX_AGE, counted from its last successful check, not its publication) when the ' +
  'screening ran: recorded then, never recomputed. The screening ran all the same. A list whose source is failing but that is still within its age is not stale.';

export const StaleListSchema = Type.Object(
  {
    list: Type.String({ description: 'The list code.', examples: ['UN_SC'] }),
    version_id: Type.String({ description: 'The version the screening ran against (also in `list_versions`).', examples: ['lv_01j0w1c9v3k6f0m8q2r4t6y8za'] }),
    confirmed_at: Type.String({ format: 'date-time', description: "The list's last successful check (or import) before the screening." }),
    age_hours: Type.Number({ description: 'Hours from `confirmed_at` to the screening, to a tenth.', examples: [290.5] }),
    max_age_hours: Type.Number({ description: 'The maximum age this list was held to (LISTS_MAX_AGE).', examples: [72] }),
  },
  { description: 'A list consulted past its maximum age.' },
);

export const staleListsField = (description: string) => Type.Array(StaleListSchema, { description });
