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
import { lowerBound } from '../lower-bound.ts';
import { finish, type Steps } from '../steps.ts';

/** Ids go below the hash in one exactly representable double: hash · 2^21 + id < 2^53. */
const ID_LIMIT = 2 ** 21;
const EMPTY = new Uint32Array(0);
/** Pairs sorted, merged or copied between two pauses of a freeze in steps: a run is sorted in well under a millisecond (32,768 took 3.4 ms, bench:index-swap). */
const RUN = 1 << 13;

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
    return finish(this.freezing());
  }

  /**
   * freeze() in steps (see ../steps.ts): a million pairs take tens of milliseconds to sort at
   * once, so runs of them are sorted one at a time and merged pass by pass, pausing every RUN pairs.
   */
  *freezing(): Steps<HashedPostings> {
    let sorted = this.packed.subarray(0, this.length);
    const n = sorted.length;
    for (let start = 0; start < n; start += RUN) {
      sorted.subarray(start, start + RUN).sort();
      yield;
    }
    let spare = new Float64Array(n);
    for (let width = RUN; width < n; width *= 2) {
      for (let left = 0; left < n; left += 2 * width) yield* merge(sorted, spare, left, Math.min(left + width, n), Math.min(left + 2 * width, n));
      [sorted, spare] = [spare, sorted];
    }
    const hashes = new Uint32Array(n);
    const ids = new Uint32Array(n);
    let count = 0;
    for (let i = 0; i < n; i++) {
      const value = sorted[i] as number;
      if (i % RUN === RUN - 1) yield;
      if (i > 0 && value === sorted[i - 1]) continue; // the same key and id added twice
      hashes[count] = Math.floor(value / ID_LIMIT);
      ids[count] = value % ID_LIMIT;
      count++;
    }
    this.packed = new Float64Array(0);
    return new HashedPostings(hashes.slice(0, count), ids.slice(0, count));
  }
}

/** Merges the sorted runs from[left, middle) and from[middle, right) into to[left, right). */
function* merge(from: Float64Array, to: Float64Array, left: number, middle: number, right: number): Steps<void> {
  let i = left;
  let j = middle;
  for (let k = left; k < right; k++) {
    to[k] = j >= right || (i < middle && (from[i] as number) <= (from[j] as number)) ? (from[i++] as number) : (from[j++] as number);
    if ((k - left) % RUN === RUN - 1) yield;
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
    const low = lowerBound(this.hashes, hash);
    let end = low;
    while (end < this.hashes.length && this.hashes[end] === hash) end++;
    return end === low ? EMPTY : this.ids.subarray(low, end);
  }
}
