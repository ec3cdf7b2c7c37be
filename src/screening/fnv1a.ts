/**
 * FNV-1a over a string's UTF-16 code units, 32 bits: stable across runs, processes and machines
 * (unlike anything seeded by the process), fast, and good enough to spread short words. The index
 * files keys under it; the evaluation splits its sets by it, so it must never change.
 */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
