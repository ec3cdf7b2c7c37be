/**
 * The shrink guard of a full workforce sync. `mode: full` deactivates every active profile the
 * payload leaves out, so a truncated or half-empty HR export would silently take most of the
 * workforce out of monitoring. As list imports refuse a file far smaller than the active version,
 * a full sync that would deactivate more than a share of the active profiles is refused before
 * anything is written, unless the caller says `allow_shrink: true`.
 */
import { AppError } from '../../http/errors.ts';
import { SHRINK_MIN_REMOVALS, shrinkLimit } from '../../shrink-limit.ts';
import type { KnownProfile } from './store.ts';

/** Deactivations always allowed, whatever the share (src/shrink-limit.ts). */
export const SHRINK_MIN_DEACTIVATIONS = SHRINK_MIN_REMOVALS;

/** The ids of the active profiles a full sync of `externalIds` leaves out: those it deactivates. */
export function absentActiveIds(known: ReadonlyMap<string, KnownProfile>, externalIds: Iterable<string>): string[] {
  const present = new Set(externalIds);
  return [...known].filter(([externalId, k]) => k.status === 'active' && !present.has(externalId)).map(([, k]) => k.id);
}

/** How many of `active` profiles one full sync may deactivate: the limit every bulk replacement has (src/shrink-limit.ts). */
export const deactivationLimit: (active: number, limitPercent: number) => number = shrinkLimit;

export type ShrinkCheck = { active: number; inRequest: number; deactivating: number; limitPercent: number; allowShrink: boolean };

/** Throws 409 `sync_shrink_refused`, naming the counts, when the sync would deactivate more than its limit. */
export function refuseLargeShrink({ active, inRequest, deactivating, limitPercent, allowShrink }: ShrinkCheck): void {
  const limit = deactivationLimit(active, limitPercent);
  if (allowShrink || deactivating <= limit) return;
  throw new AppError(
    'sync_shrink_refused',
    `This full sync would deactivate ${deactivating} of the organization's ${active} active profiles (the request has ${inRequest}); ` +
      `at most ${limit} may be deactivated at once (${limitPercent}%, at least ${SHRINK_MIN_DEACTIVATIONS}, never all). ` +
      'A payload this short is more likely a truncated export than that many people leaving: nothing was changed. Send `allow_shrink: true` if they really left.',
    { active_profiles: active, profiles_in_request: inRequest, would_deactivate: deactivating, deactivation_limit: limit, limit_percent: limitPercent },
  );
}
