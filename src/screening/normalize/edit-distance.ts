/**
 * Edit distance between two short words, the one primitive both the normalizer (misspelled legal
 * forms) and the scorer (typos) need.
 */

/** Rows reused by every call: screening is synchronous, and names are short. */
const MAX_ROW = 128;
let rowBefore = new Int32Array(MAX_ROW);
let rowPrevious = new Int32Array(MAX_ROW);
let rowCurrent = new Int32Array(MAX_ROW);

/** Optimal-string-alignment distance (a transposition is one edit), abandoned above `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (b.length + 1 > MAX_ROW) return a === b ? 0 : max + 1;
  for (let j = 0; j <= b.length; j++) rowPrevious[j] = j;
  for (let i = 1; i <= a.length; i++) {
    rowCurrent[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const cb = b.charCodeAt(j - 1);
      let value = Math.min((rowPrevious[j] as number) + 1, (rowCurrent[j - 1] as number) + 1, (rowPrevious[j - 1] as number) + (ca === cb ? 0 : 1));
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) value = Math.min(value, (rowBefore[j - 2] as number) + 1);
      rowCurrent[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [rowBefore, rowPrevious, rowCurrent] = [rowPrevious, rowCurrent, rowBefore];
  }
  return rowPrevious[b.length] as number;
}
