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
 * A Korean name is three syllables most often (a family name and a given name of two), two at
 * least (RYU Jin). Two characters are read in Korean only when written as one word, as a Korean
 * name is: two characters apart ("伟 张") are a Chinese given and family name, whose Korean
 * readings would meet the syllables of listed Korean names.
 */
const MIN_SYLLABLES = 3;
const MIN_SYLLABLES_AS_ONE_WORD = 2;

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
  const oneWord = !/\s/.test(name.trim());
  return syllables >= (oneWord ? MIN_SYLLABLES_AS_ONE_WORD : MIN_SYLLABLES) ? out : undefined;
}
