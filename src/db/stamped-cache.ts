/**
 * A value the service would otherwise read from an organization's tables in every request (its
 * adjudication rules, its suppressions), kept per organization under the organization's settings
 * stamp (migration 0035). A trigger changes the stamp in the same transaction as any change to
 * those tables, and authentication reads it with the API key, so a request that brings the stamp
 * a value was kept under uses that value without a statement; any other request reads it again.
 *
 * Why this is never stale: the stamp is read (at authentication) before the value (in the
 * request's transaction), so a value read under stamp s is at least as new as s. A request that
 * later brings s authenticated before any newer change had committed, since such a change would
 * have moved the stamp. Requests without a stamp (people, system jobs) always read.
 */
import type { Actor, TenantTransaction } from './tenant.ts';

export type StampedCache<T> = (trx: TenantTransaction, actor: Actor) => Promise<T>;

/** Organizations whose value is kept; beyond that the one unused the longest is dropped. */
const MAX_ORGANIZATIONS = 10_000;

/** `load` reads the value in the request's transaction; what it answers is shared, so it is frozen. */
export function stampedCache<T extends object>(load: (trx: TenantTransaction) => Promise<T>): StampedCache<T> {
  const kept = new Map<string, { stamp: string; value: T }>();
  return async (trx, { organizationId, settingsStamp }) => {
    if (settingsStamp === undefined) return load(trx);
    const hit = kept.get(organizationId);
    kept.delete(organizationId);
    if (hit?.stamp === settingsStamp) {
      kept.set(organizationId, hit);
      return hit.value;
    }
    const value = deepFreeze(await load(trx));
    if (kept.size >= MAX_ORGANIZATIONS) kept.delete(kept.keys().next().value as string);
    kept.set(organizationId, { stamp: settingsStamp, value });
    return value;
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
