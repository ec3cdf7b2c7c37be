/**
 * Numbers written as words, in organizations' names, read as the number they are: Brigade
 * Forty-Four = Brigade 44, Three Percenters = 3 Percenters, First International Bank = 1st
 * International Bank, Fund VII = Fund 7. Lists and the people typing names write numbers every
 * way; the matcher compares numbers exactly, so it must see one spelling. English only, and only
 * the numbers names use (up to ninety-nine, ordinals to twentieth, Roman numerals to twenty).
 */

const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
/** "Fourty" is how forty is most often misspelled; names carry the misspelling. */
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fourty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };
const ORDINALS: Record<string, number> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
  thirteenth: 13,
  fourteenth: 14,
  fifteenth: 15,
  sixteenth: 16,
  seventeenth: 17,
  eighteenth: 18,
  nineteenth: 19,
  twentieth: 20,
};
/**
 * Roman numerals as a series or vintage marker (Fund VII, Trust XV). Only after a name's first
 * word, where a lone V or X is not an initial: "X Corp" keeps its X.
 */
const ROMAN: Record<string, number> = {
  ii: 2,
  iii: 3,
  iv: 4,
  v: 5,
  vi: 6,
  vii: 7,
  viii: 8,
  ix: 9,
  x: 10,
  xi: 11,
  xii: 12,
  xiii: 13,
  xiv: 14,
  xv: 15,
  xvi: 16,
  xvii: 17,
  xviii: 18,
  xix: 19,
  xx: 20,
};
const DIGIT_ORDINAL = /^(\d+)(?:st|nd|rd|th)$/;

export type NumberSpan = { length: number; value: string };

/** A number word typed with a letter doubled (Firsst, Fourtty) is still that word. */
const undoubled = (word: string | undefined) => word?.replace(/(.)\1+/g, '$1');
const UNDOUBLED = new Map([UNITS, TENS, ORDINALS].flatMap((table) => Object.keys(table).map((word) => [undoubled(word) as string, word] as const)));
const numberWord = (word: string | undefined) =>
  word === undefined ? undefined : word in UNITS || word in TENS || word in ORDINALS ? word : UNDOUBLED.get(undoubled(word) as string);

/** The number written by the words from `at`, and how many words it takes; undefined when none. */
export function numberAt(words: readonly string[], at: number): NumberSpan | undefined {
  const word = numberWord(words[at]) ?? (words[at] as string);
  const next = numberWord(words[at + 1]) ?? words[at + 1];
  const tens = TENS[word];
  if (tens !== undefined) {
    // Forty-Four, Forty 4: the unit may follow as a word or a digit.
    const unit = next === undefined ? undefined : /^[1-9]$/.test(next) ? Number(next) : UNITS[next];
    if (unit !== undefined && unit >= 1 && unit <= 9) return { length: 2, value: String(tens + unit) };
    return { length: 1, value: String(tens) };
  }
  const simple = UNITS[word] ?? ORDINALS[word] ?? (at > 0 ? ROMAN[word] : undefined);
  if (simple !== undefined) return { length: 1, value: String(simple) };
  const ordinal = DIGIT_ORDINAL.exec(word);
  return ordinal ? { length: 1, value: String(Number(ordinal[1])) } : undefined;
}
