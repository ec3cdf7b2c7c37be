/**
 * A value the service would otherwise read from an organization's tables in every transaction
 * (its adjudication rules, its suppressions), kept per organization under the organization's
 * settings stamp (migrations 0035, 0037). A trigger moves the stamp in the same transaction as
 * any change to those tables, and each tenant transaction's first statement reads it with the
 * settings (src/db/tenant.ts), so a transaction that brings the stamp a value was kept under uses
 * that value without a statement; any other one reads it again.
 *
 * Why this is never stale: the stamp is read before the value, so a value read under stamp s is
 * at least as new as s. A transaction that later brings s began after the value's reader had read
 * s and before any newer change had committed, since such a change would have moved the stamp.
 */
import { type TenantTransaction, tenantSettingsOf } from './tenant.ts';

export type StampedCache<T> = (trx: TenantTransaction) => Promise<T>;

export type StampedCacheOptions<T> = {
  /** What a value counts against `maxWeight` (rows, say); 1 each unless given. */
  weigh?: (value: T) => number;
  /** The most the kept values may weigh together; beyond it those unused the longest are dropped. */
  maxWeight?: number;
};

/** `load` reads the value in the transaction; what it answers is shared, so it is frozen. */
export function stampedCache<T extends object>(load: (trx: TenantTransaction) => Promise<T>, options: StampedCacheOptions<T> = {}): StampedCache<T> {
  const { weigh = () => 1, maxWeight = 10_000 } = options;
  // A Map iterates in insertion order: a value is moved to the end when used, so the first is the one unused the longest.
  const kept = new Map<string, { stamp: string; value: T; weight: number }>();
  let weight = 0;
  const drop = (organizationId: string) => {
    weight -= kept.get(organizationId)?.weight ?? 0;
    kept.delete(organizationId);
  };
  return async (trx) => {
    const { organizationId, settingsStamp } = tenantSettingsOf(trx);
    const hit = kept.get(organizationId);
    if (hit?.stamp === settingsStamp) {
      kept.delete(organizationId);
      kept.set(organizationId, hit);
      return hit.value;
    }
    const value = deepFreeze(await load(trx));
    drop(organizationId);
    const entry = { stamp: settingsStamp, value, weight: weigh(value) };
    if (entry.weight > maxWeight) return value;
    while (weight + entry.weight > maxWeight) drop(kept.keys().next().value as string);
    kept.set(organizationId, entry);
    weight += entry.weight;
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
