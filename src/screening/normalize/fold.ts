/**
 * Text folding shared by the index and the query: whatever script or spelling a name arrives in,
 * it leaves as lower-case ASCII word tokens, each remembering the script it came from.
 *
 * - Latin: compatibility forms folded (NFKC), case folded, diacritics stripped, the letters NFD
 *   cannot decompose (ß ø ł æ œ đ ı þ ð) spelled out, apostrophes dropped inside words.
 * - Alphabetic scripts (Cyrillic, Greek, Armenian, Georgian, Hangul, …): transliterated with
 *   any-ascii, which keeps word boundaries; Hangul syllable blocks come out joined in camel case
 *   (GimJeongEun) and are split back into syllables.
 * - Han: pinyin, one token per syllable (习近平 → xi jin ping); the scorer re-joins syllables.
 * - Arabic, Persian, Hebrew: any-ascii gives a consonant skeleton (محمد → mhmd). Such tokens are
 *   marked `abjad` and compared by skeleton only, never fuzzily as if they were Latin spellings,
 *   because the vowels are simply not written.
 */
import anyAscii from 'any-ascii';
import { pinyin } from 'pinyin-pro';

/** `han` stands for the syllabic scripts of East Asia: one character, one short syllable. */
export type Script = 'latin' | 'alphabetic' | 'han' | 'abjad';

/** `glyph`: for syllabic scripts (Han, Hangul, kana), the character the syllable was read from. */
export type FoldedWord = { text: string; script: Script; original: string; glyph?: string };

const SPECIAL_LETTERS: Record<string, string> = {
  ß: 'ss',
  ø: 'o',
  ł: 'l',
  æ: 'ae',
  œ: 'oe',
  đ: 'd',
  ı: 'i',
  þ: 'th',
  ð: 'd',
  ħ: 'h',
  ŧ: 't',
  ŀ: 'l',
  ĸ: 'k',
};
const SPECIAL_PATTERN = new RegExp(`[${Object.keys(SPECIAL_LETTERS).join('')}]`, 'g');

/** Apostrophe-like marks inside words (O'Brien, Ma'ruf, ʿAbd) join rather than split. */
const APOSTROPHES = /['’‘`´ʻʼʽʾʿˈ]/g;
/** Dots join abbreviations (S.A. → sa, L.L.C. → llc); every other non-letter separates words. */
const DOTS = /\./g;
/** Combining marks belong to their letter (Devanagari vowel signs, Arabic harakat, Yoruba tones). */
const SEPARATORS = /[^\p{L}\p{M}\p{N}]+/u;
/** Invisible format characters (zero-width joiners, bidi marks, soft hyphens) are not there at all. */
const FORMAT_CHARACTERS = /\p{Cf}/gu;

const HAN = /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN_ONLY = /\p{Script=Han}/u;
const ABJAD = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;
const NON_LATIN_LETTER = /[^\p{Script=Latin}\p{N}\p{M}]/u;

export function scriptOf(word: string): Script {
  if (ABJAD.test(word)) return 'abjad';
  if (HAN.test(word)) return 'han';
  return NON_LATIN_LETTER.test(word) ? 'alphabetic' : 'latin';
}

function foldLatin(word: string): string {
  const folded = word
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(SPECIAL_PATTERN, (letter) => SPECIAL_LETTERS[letter] ?? letter);
  // Latin letters with no decomposition and no entry above (ə, ŋ, ʒ …) still reach ASCII.
  return /[^\x00-\x7f]/.test(folded) ? anyAscii(folded).toLowerCase() : folded;
}

/** any-ascii output, split where it joined syllables in camel case, then folded like Latin. */
function transliterate(word: string): string[] {
  return anyAscii(word.toLowerCase())
    .replace(APOSTROPHES, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(SEPARATORS)
    .filter(Boolean)
    .map(foldLatin);
}

/**
 * Digits typed for the letters they resemble. In any name, between two letters (Ig0r Sech1n;
 * never "44", nor the series number that ends AHL1 or AR16). In a person's name, which carries no
 * numbers, also a digit that opens or closes a word (0sama, Al1, M4): a visitor's name typed with
 * look-alike digits is the same name. A 1 is read as i; a query is also read with l (see
 * withLookalikeLetters), since 1 stands for both.
 */
const LOOKALIKE_DIGITS: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '9': 'g' };
const BETWEEN_LETTERS = /(?<=\p{L})\d(?=\p{L})/gu;
const BESIDE_A_LETTER = /(?<=\p{L})\d|\d(?=\p{L})/gu;
function undoLookalikes(word: string, person: boolean, one = 'i'): string {
  if (!/\d/.test(word)) return word;
  // In the word's case, so that a read name is not split where case changes (4VANFORT → AVANFORT, not aVANFORT).
  const upper = word !== word.toLowerCase() && word === word.toUpperCase();
  const letter = (d: string) => {
    const read = d === '1' ? one : (LOOKALIKE_DIGITS[d] ?? d);
    return upper ? read.toUpperCase() : read;
  };
  const inner = word.replace(BETWEEN_LETTERS, letter);
  if (!person) return inner;
  // Again until none is left beside a letter: a run of digits (Syriat31) is read from its letter outwards.
  let read = inner;
  for (let next = read.replace(BESIDE_A_LETTER, letter); next !== read; next = read.replace(BESIDE_A_LETTER, letter)) read = next;
  return read;
}

/**
 * The name with every look-alike digit beside a letter read as that letter, in words of two
 * letters or more (OO0 MAKR0 GRUPP → OOO MAKRO GRUPP); undefined when no digit is read. An
 * organization's name may carry a real number beside letters (AHL1, AR16), so this is a second
 * reading of a query, never the only one, and never of a listed name.
 */
export function withLookalikeLetters(name: string, one: 'i' | 'l' = 'i'): string | undefined {
  const read = name.replace(/[\p{L}\p{N}]+/gu, (word) => undoLookalikes(word, true, one));
  return read === name ? undefined : read;
}

/** One token per syllable, each remembering its character: 高市 and 高石 both read gao shi. */
function syllables(word: string): FoldedWord[] {
  const out: FoldedWord[] = [];
  for (const glyph of word) {
    const reading = HAN_ONLY.test(glyph) ? pinyin(glyph, { toneType: 'none' }) : glyph;
    for (const text of transliterate(reading)) out.push({ text, script: 'han', original: word, glyph });
  }
  return out;
}

/**
 * A name as words: the order kept, the script of each word remembered. `person`: the name is read
 * as a person's, so digits beside letters are look-alike letters (see undoLookalikes).
 */
export function foldWords(name: string, options: { person?: boolean } = {}): FoldedWord[] {
  const words = name
    .normalize('NFKC')
    .replace(FORMAT_CHARACTERS, '')
    .replace(APOSTROPHES, '')
    // Words run together in camel case are two words (SiemensAG, FridrichBuchenberg); the scorer
    // re-joins. One capital closing a word is part of it (GmbH, AkG), and dotted letters are an
    // abbreviation, whatever their case (o.O.O.): split before the dots go.
    .replace(/(\p{Ll})(\p{Lu})(?=\p{L})/gu, '$1 $2')
    .replace(DOTS, '')
    .split(SEPARATORS)
    .filter(Boolean);
  const out: FoldedWord[] = [];
  for (const original of words) {
    const script = scriptOf(original);
    if (script === 'latin') {
      out.push({ text: foldLatin(undoLookalikes(original, options.person === true)), script, original });
    } else if (script === 'han') {
      out.push(...syllables(original));
    } else {
      // Arabic and Hebrew vowel marks are optional in writing: drop them, so marked and unmarked spellings meet.
      const word = script === 'abjad' ? original.replace(/\p{Mn}/gu, '') : original;
      for (const text of transliterate(word)) out.push({ text, script, original });
    }
  }
  return out.filter((word) => word.text.length > 0);
}

/**
 * The consonant skeleton that a Latin spelling and an abjad transliteration share:
 * SADDAM HUSSEIN → sdm hsn; صدام حسين → sdm hsyn → sdm hsn.
 */
export function consonantSkeleton(text: string): string {
  return text.replace(/[aeiouyw]/g, '').replace(/(.)\1+/g, '$1');
}
