/**
 * Postings keyed by strings (typo-deletion keys, phonetic codes, skeletons, joined word pairs),
 * frozen into two typed arrays instead of a Map of arrays: each (key, id) pair is kept as the
 * key's 32-bit hash and the id, sorted by hash, and found by binary search. Hundreds of thousands
 * of keys then cost 8 bytes a pair rather than a string, an array and a map slot each.
 *
 * No key string is kept, so two keys with one hash share their ids. A lookup can then return an
 * id that a different key put there; every caller compares what it finds with the query word
 * (or credits a candidate that full scoring then judges), so a collision costs a comparison and
 * never loses a match.
 */
import { fnv1a32 } from '../fnv1a.ts';

/** Ids go below the hash in one exactly representable double: hash · 2^21 + id < 2^53. */
const ID_LIMIT = 2 ** 21;
const EMPTY = new Uint32Array(0);

export class HashedPostingsBuilder {
  private packed = new Float64Array(1024);
  private length = 0;

  add(key: string, id: number): void {
    if (id >= ID_LIMIT || id < 0) throw new RangeError(`posting id ${id} is outside [0, ${ID_LIMIT})`);
    if (this.length === this.packed.length) {
      const grown = new Float64Array(this.packed.length * 2);
      grown.set(this.packed);
      this.packed = grown;
    }
    this.packed[this.length++] = fnv1a32(key) * ID_LIMIT + id;
  }

  freeze(): HashedPostings {
    const sorted = this.packed.subarray(0, this.length).sort();
    const hashes = new Uint32Array(sorted.length);
    const ids = new Uint32Array(sorted.length);
    let count = 0;
    for (let i = 0; i < sorted.length; i++) {
      const value = sorted[i] as number;
      if (i > 0 && value === sorted[i - 1]) continue; // the same key and id added twice
      hashes[count] = Math.floor(value / ID_LIMIT);
      ids[count] = value % ID_LIMIT;
      count++;
    }
    this.packed = new Float64Array(0);
    return new HashedPostings(hashes.slice(0, count), ids.slice(0, count));
  }
}

export class HashedPostings {
  constructor(
    private readonly hashes: Uint32Array,
    private readonly ids: Uint32Array,
  ) {}

  /** The ids filed under `key` (and under any key sharing its hash), as a view: not to be kept. */
  get(key: string): Uint32Array {
    const hash = fnv1a32(key);
    let low = 0;
    let high = this.hashes.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.hashes[middle] as number) < hash) low = middle + 1;
      else high = middle;
    }
    let end = low;
    while (end < this.hashes.length && this.hashes[end] === hash) end++;
    return end === low ? EMPTY : this.ids.subarray(low, end);
  }
}
