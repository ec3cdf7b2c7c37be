/**
 * Every labelled set is split by entity (or by case) with a stable hash, so a name and its
 * variants always fall in the same part and the parts never move between runs: dev 60 % (look
 * at freely), tune 20 % (choose constants and thresholds), test 20 % (never tuned on; the
 * figures that count).
 */
import { fnv1a32 } from '../../src/screening/fnv1a.ts';

export type Part = 'dev' | 'tune' | 'test';

/** FNV-1a, 32 bits: stable across runs and machines, unlike anything seeded by the process. */
export const stableHash = fnv1a32;

export function partOf(key: string): Part {
  const bucket = stableHash(key) % 100;
  return bucket < 60 ? 'dev' : bucket < 80 ? 'tune' : 'test';
}
