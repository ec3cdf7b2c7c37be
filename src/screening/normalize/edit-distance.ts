/**
 * Edit distance between two short words, the one primitive both the normalizer (misspelled legal
 * forms) and the scorer (typos) need.
 */

/** Rows reused by every call: screening is synchronous, and names are short. */
const MAX_ROW = 128;
let rowBefore = new Int32Array(MAX_ROW);
let rowPrevious = new Int32Array(MAX_ROW);
let rowCurrent = new Int32Array(MAX_ROW);

/**
 * Optimal-string-alignment distance (a transposition is one edit), abandoned above `max`, between
 * the first `aLength` letters of `a` and the first `bLength` of `b` (the whole words by default).
 */
export function editDistance(a: string, b: string, max: number, aLength = a.length, bLength = b.length): number {
  if (Math.abs(aLength - bLength) > max) return max + 1;
  if (bLength + 1 > MAX_ROW) return a.slice(0, aLength) === b.slice(0, bLength) ? 0 : max + 1;
  for (let j = 0; j <= bLength; j++) rowPrevious[j] = j;
  for (let i = 1; i <= aLength; i++) {
    rowCurrent[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= bLength; j++) {
      const cb = b.charCodeAt(j - 1);
      let value = Math.min((rowPrevious[j] as number) + 1, (rowCurrent[j - 1] as number) + 1, (rowPrevious[j - 1] as number) + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) value = Math.min(value, (rowBefore[j - 2] as number) + 1);
      rowCurrent[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    const recycled = rowBefore;
    rowBefore = rowPrevious;
    rowPrevious = rowCurrent;
    rowCurrent = recycled;
  }
  return rowPrevious[bLength] as number;
}
