/**
 * Words of a company's name in the forms brands and registers write them, which no edit distance
 * connects: a trade word and its derived forms (Trade, Trading; Industry, Industrial, Industries;
 * Petrol, Petroleum), and the brand forms of a few (Mahan Airlines is MAHAN AIR on the list; X
 * Technologies trades as X Tech). Compared as one word (how `word_form`), not folded into one
 * spelling: folding would put a misspelled long form out of reach of its listed long form.
 * Folded English text (see fold.ts).
 */
import { FormGroups } from './form-groups.ts';

export const TRADE_WORDS = new FormGroups([
  ['air', 'airlines', 'airline', 'airways', 'airway'],
  ['tech', 'technologies', 'technology'],
  ['service', 'services', 'svc', 'svcs'],
  ['shipping', 'ship', 'ships'],
]);

/**
 * English endings that derive a trade word from its stem, longest first. A stem keeps four letters
 * at least, so short words (Ali, Jon) and most persons' names are never cut.
 */
const ENDINGS = [
  'ologies',
  'ations',
  'ation',
  'ments',
  'ment',
  'ings',
  'ical',
  'ing',
  'ies',
  'ial',
  'ics',
  'eum',
  'ers',
  'al',
  'ic',
  'er',
  'es',
  'y',
  'e',
  's',
];
const MIN_STEM = 4;

/** The word without its derivational ending (trading → trad, trade → trad, industrial → industr); the word itself when it has none. */
export function wordStem(word: string): string {
  for (const ending of ENDINGS) {
    if (word.length - ending.length >= MIN_STEM && word.endsWith(ending)) return word.slice(0, -ending.length);
  }
  return word;
}

/** Two different words of one stem (Trade and Trading; Petrol and Petroleum). */
export function sameStem(a: string, b: string): boolean {
  // Scoring asks this of every pair no spelling rule joined: the stems' first letters reject most at once.
  if (a === b || a.length < MIN_STEM || b.length < MIN_STEM) return false;
  for (let i = 0; i < MIN_STEM; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return false;
  const stem = wordStem(a);
  return stem === wordStem(b) && (stem !== a || stem !== b);
}
