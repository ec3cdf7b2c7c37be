/**
 * Korean names written in Chinese characters (Hanja), read the Korean way. A North Korean name is
 * often published in Hanja (金正恩), which pinyin reads as Chinese (jin zheng en) and no list spells
 * that way; its Sino-Korean reading (김정은, gim jeong eun) is the name the lists romanize (KIM Jong
 * Un). The readings come from the hanja package's table (MIT), one Hangul syllable per character,
 * written without South Korea's initial-sound rule, as the North writes names (李 → 리, Ri).
 */
import { createRequire } from 'node:module';

/** Characters a family name reads otherwise than a word does (金 is geum in words, Gim as a name). */
const FAMILY_NAME_READINGS: Record<string, string> = { 金: '김' };

/**
 * A Korean name is three syllables or more (a family name and a given name of two, most often).
 * Shorter Han names are read as Chinese only: read in Korean, two-character Chinese names meet
 * the syllables of many listed Korean names.
 */
const MIN_SYLLABLES = 3;

const HAN = /\p{Script=Han}/u;
const LETTER = /\p{L}/u;

let table: Record<string, string> | undefined;
const readingOf = (glyph: string): string | undefined => {
  table ??= createRequire(import.meta.url)('hanja/lib/data/hanjaeum.json') as Record<string, string>;
  return table[glyph];
};

/** The name read in Hangul when it is written in Han characters alone, enough of them, each with a reading; otherwise undefined. */
export function hanjaAsHangul(name: string): string | undefined {
  let syllables = 0;
  let out = '';
  for (const character of name) {
    if (!LETTER.test(character)) {
      out += character;
      continue;
    }
    if (!HAN.test(character)) return undefined;
    const reading = (syllables === 0 ? FAMILY_NAME_READINGS[character] : undefined) ?? readingOf(character);
    if (reading === undefined) return undefined;
    out += reading;
    syllables += 1;
  }
  return syllables >= MIN_SYLLABLES ? out : undefined;
}
