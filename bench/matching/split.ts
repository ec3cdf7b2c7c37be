/**
 * Every labelled set is split by entity (or by case) with a stable hash, so a name and its
 * variants always fall in the same part and the parts never move between runs: dev 60 % (look
 * at freely), tune 20 % (choose constants and thresholds), test 20 % (never tuned on; the
 * figures that count).
 */

export type Part = 'dev' | 'tune' | 'test';

/** FNV-1a, 32 bits: stable across runs and machines, unlike anything seeded by the process. */
export function stableHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function partOf(key: string): Part {
  const bucket = stableHash(key) % 100;
  return bucket < 60 ? 'dev' : bucket < 80 ? 'tune' : 'test';
}
