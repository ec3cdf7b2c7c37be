/**
 * moov-io/watchman's name similarity, re-implemented from its documented formula
 * (../shared/docs/matching.md §2, `internal/stringscore/jaro_winkler.go`) so the evaluation can
 * put our engine next to it on the same rows and the same machine. Constants are watchman's
 * defaults; nothing here is tuned.
 */

const BOOST_THRESHOLD = 0.7;
const PREFIX_SIZE = 4;
const LENGTH_DIFFERENCE_CUTOFF = 0.9;
const LENGTH_DIFFERENCE_PENALTY_WEIGHT = 0.3;
const DIFFERENT_LETTER_PENALTY = 0.9;
const UNMATCHED_INDEX_TOKEN_WEIGHT = 0.15;

/** `1 − (1 − metric) × weight`: how watchman scales a score down by a fraction it dislikes. */
const scalingFactor = (metric: number, weight: number) => 1 - (1 - metric) * weight;

/** Plain Jaro similarity (the xrash/smetrics definition watchman calls). */
export function jaro(a: string, b: string): number {
  if (a.length === 0 || b.length === 0) return 0;
  if (a === b) return 1;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatched = new Uint8Array(a.length);
  const bMatched = new Uint8Array(b.length);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const end = Math.min(b.length, i + window + 1);
    for (let j = Math.max(0, i - window); j < end; j++) {
      if (bMatched[j] || a[i] !== b[j]) continue;
      aMatched[i] = 1;
      bMatched[j] = 1;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let halfTranspositions = 0;
  for (let i = 0, j = 0; i < a.length; i++) {
    if (!aMatched[i]) continue;
    while (!bMatched[j]) j++;
    if (a[i] !== b[j]) halfTranspositions++;
    j++;
  }
  return (matches / a.length + matches / b.length + (matches - halfTranspositions / 2) / matches) / 3;
}

/** Jaro-Winkler with watchman's boost threshold (0.7) and prefix size (4). */
export function jaroWinkler(a: string, b: string): number {
  const score = jaro(a, b);
  if (score <= BOOST_THRESHOLD) return score;
  const prefix = Math.min(PREFIX_SIZE, a.length, b.length);
  let common = 0;
  while (common < prefix && a[common] === b[common]) common++;
  return score + 0.1 * common * (1 - score);
}

/** Jaro-Winkler is lenient on length and first letters; watchman penalises both. */
export function customJaroWinkler(a: string, b: string): number {
  let score = jaroWinkler(a, b);
  const lengthRatio = Math.min(a.length, b.length) / Math.max(a.length, b.length);
  if (lengthRatio < LENGTH_DIFFERENCE_CUTOFF) score *= scalingFactor(lengthRatio, LENGTH_DIFFERENCE_PENALTY_WEIGHT);
  // The code compares the first characters themselves (the doc's "phonetic class" is the pairing gate below).
  if (a[0] !== b[0]) score *= DIFFERENT_LETTER_PENALTY;
  return score;
}

/** Soundex digit classes; vowels and h/w/y share class 0, as in Soundex. */
const SOUNDEX_CLASS: Record<string, string> = {};
for (const [letters, code] of [
  ['bfpv', '1'],
  ['cgjkqsxz', '2'],
  ['dt', '3'],
  ['l', '4'],
  ['mn', '5'],
  ['r', '6'],
  ['aeiouhwy', '0'],
] as const) {
  for (const letter of letters) SOUNDEX_CLASS[letter] = code;
}
export const firstLetterClass = (token: string): string => SOUNDEX_CLASS[token[0] as string] ?? (token[0] as string);

/**
 * Score a query's tokens against one indexed name: Jaro-Winkler for every token pair whose first
 * letters share a Soundex class, best pairs taken greedily (each token used once), averaged
 * weighted by the pair's length, then scaled down by the share of the indexed name left unmatched
 * ("John Doe" must beat "John Bartholomew Doe"). Unmatched query tokens count in the denominator.
 */
export function bestPairsJaroWinkler(queryTokens: readonly string[], indexedTokens: readonly string[]): number {
  if (queryTokens.length === 0 || indexedTokens.length === 0) return 0;
  const pairs: { score: number; q: number; i: number }[] = [];
  for (let q = 0; q < queryTokens.length; q++) {
    const queryToken = queryTokens[q] as string;
    const queryClass = firstLetterClass(queryToken);
    for (let i = 0; i < indexedTokens.length; i++) {
      const indexedToken = indexedTokens[i] as string;
      if (firstLetterClass(indexedToken) === queryClass) pairs.push({ score: customJaroWinkler(indexedToken, queryToken), q, i });
    }
  }
  pairs.sort((x, y) => y.score - x.score);
  const queryUsed = new Uint8Array(queryTokens.length);
  const indexUsed = new Uint8Array(indexedTokens.length);
  let weighted = 0;
  let matchedIndexLength = 0;
  for (const { score, q, i } of pairs) {
    if (queryUsed[q] || indexUsed[i]) continue;
    queryUsed[q] = 1;
    indexUsed[i] = 1;
    const indexLength = (indexedTokens[i] as string).length;
    weighted += score * ((queryTokens[q] as string).length + indexLength);
    matchedIndexLength += indexLength;
  }
  const queryLength = queryTokens.reduce((sum, t) => sum + t.length, 0);
  const indexLength = indexedTokens.reduce((sum, t) => sum + t.length, 0);
  const average = weighted / (queryLength + matchedIndexLength);
  return average * scalingFactor(matchedIndexLength / indexLength, UNMATCHED_INDEX_TOKEN_WEIGHT);
}
