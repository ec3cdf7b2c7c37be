/**
 * What the evidence says about the freshness of the lists a screening ran against, as the
 * screening recorded it: a list past its maximum age is named with its last confirmation, and a
 * record made before freshness was recorded says so rather than passing for current.
 */
import type { EvidenceInput } from './evidence-input.ts';

/** What a screening recorded of the lists' freshness (a screening's record, or an ownership check's screening summary). */
type Screening = Pick<EvidenceInput['screening'], 'lists_stale' | 'stale_lists'>;

/** The outcome's one-line summary ("Stale lists"). */
export function staleListsSummary({ lists_stale, stale_lists }: Screening): string {
  if (lists_stale === undefined) return 'not recorded';
  if (!lists_stale || !stale_lists?.length) return 'none';
  return `${stale_lists.map((l) => l.list).join(', ')}: past the maximum age when this screening ran (see the list versions below)`;
}

/** One sentence for the list versions section. */
export function staleListSentences({ lists_stale, stale_lists }: Screening): string[] {
  if (lists_stale === undefined) {
    return ['Whether any list was past its maximum age when this screening ran was not recorded: the screening was made before Gatehouse recorded it.'];
  }
  if (!lists_stale || !stale_lists?.length) {
    return [
      'Every list consulted was within its maximum age when this screening ran: each had been confirmed current, by a successful check of its source or an import, within the hours allowed.',
    ];
  }
  return stale_lists.map(
    (l) =>
      `${l.list} was past its maximum age (last confirmed current ${l.confirmed_at}, ${l.age_hours.toFixed(1)} hours before; ${l.max_age_hours} hours allowed) ` +
      `when this screening ran. The screening ran against its version ${l.version_id} as it was.`,
  );
}
