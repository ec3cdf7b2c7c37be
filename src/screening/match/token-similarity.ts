/**
 * How alike two name tokens are, and why: exact, a typo within a length budget, the same sound
 * (Double Metaphone), the same consonant skeleton across scripts, an initial, or the same class
 * of legal form. Anything weaker is 0: a token pair either explains itself or does not count.
 */
import type { TokenMatchKind } from '../match-types.ts';
import type { Script } from '../normalize/fold.ts';
import type { WordRole } from '../normalize/name-vocabulary.ts';

/** What the scorer knows about a token, precomputed once per distinct token. */
export type TokenKeys = {
  text: string;
  script: Script;
  role: WordRole;
  phonetic: readonly string[];
  skeleton: string;
};

export type TokenSimilarity = { similarity: number; how: TokenMatchKind };

const NONE: TokenSimilarity = { similarity: 0, how: 'unmatched_query' };

/** Edits a token of this length may absorb and still be the same name (rigour-style budget). */
export function typoBudget(length: number): number {
  if (length <= 3) return 0;
  if (length <= 5) return 1;
  if (length <= 9) return 2;
  return 3;
}

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

const crossScript = (a: TokenKeys, b: TokenKeys) => a.script !== b.script || a.script !== 'latin';

function typoSimilarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  const budget = typoBudget(Math.min(a.length, b.length));
  if (budget === 0) return 0;
  const distance = editDistance(a, b, budget);
  if (distance > budget) return 0;
  // A first letter that differs is a weaker sign than an edit inside the word.
  const firstLetterPenalty = a[0] === b[0] ? 0 : 0.05;
  return 1 - (0.5 * distance) / longest - firstLetterPenalty;
}

export function tokenSimilarity(a: TokenKeys, b: TokenKeys): TokenSimilarity {
  if (a.role === 'legal_form' || b.role === 'legal_form') {
    if (a.role !== b.role) return NONE;
    return { similarity: a.text === b.text ? 1 : 0.6, how: 'legal_form' };
  }
  if (a.text === b.text) return { similarity: 1, how: crossScript(a, b) ? 'transliterated' : 'exact' };
  // Numbers are identities (a vessel's hull number, a company's "No. 2"): exact or nothing.
  if (a.role === 'number' || b.role === 'number') return NONE;

  // Written without vowels on one side: only the consonant skeleton can be compared, and a
  // skeleton of two consonants is shared by too many names to mean anything.
  if (a.script === 'abjad' || b.script === 'abjad') {
    if (a.skeleton.length < 3 || b.skeleton.length < 3) return NONE;
    if (a.skeleton === b.skeleton) return { similarity: 0.9, how: 'transliterated' };
    const distance = editDistance(a.skeleton, b.skeleton, 1);
    return distance <= 1 && Math.min(a.skeleton.length, b.skeleton.length) >= 4 ? { similarity: 0.8, how: 'transliterated' } : NONE;
  }

  // An initial the subject gives fits the listed name well; a full name the subject gives for a
  // listed initial is merely not contradicted, so it counts for little.
  if (a.text.length === 1 || b.text.length === 1) {
    if (a.text[0] !== b.text[0]) return NONE;
    return { similarity: a.text.length === 1 ? 0.85 : 0.5, how: 'initial' };
  }
  // Pinyin syllables are short and one letter apart is another name (ming, ping): exact only.
  if (a.script === 'han' || b.script === 'han') return NONE;

  const typo = typoSimilarity(a.text, b.text);
  // Double Metaphone codes are short and vowel-blind (tingliao and daniel share TNL): the same
  // sound counts only when the spellings are also within half a word of each other.
  const samePhonetic =
    a.phonetic.some((code) => b.phonetic.includes(code)) &&
    editDistance(a.text, b.text, Math.ceil(Math.min(a.text.length, b.text.length) / 2)) <= Math.ceil(Math.min(a.text.length, b.text.length) / 2);
  if (samePhonetic && typo < 0.88) return { similarity: 0.88, how: 'phonetic' };
  if (typo >= 0.7) return { similarity: typo, how: 'typo' };
  return NONE;
}
