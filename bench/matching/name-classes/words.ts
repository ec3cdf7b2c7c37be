/**
 * Names as words, for the name-class set (f): each word keeps the spelling it was listed with (a
 * query is rebuilt from those) and a folded token to compare by (lower case, no marks, dots and
 * apostrophes gone: "Co.," → co, "S.A." → sa). This is the evaluation's own reading, independent
 * of the engine's, so a change to the engine cannot change what the set asks.
 */

export type Word = { text: string; token: string };

/** Letters or digits, then anything but separators: hyphens, brackets, commas and spaces separate. */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}.'’&]*/gu;

export const foldToken = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');

export function wordsOf(name: string): Word[] {
  // A closing quote is the list's punctuation, not the word's ('Republic of Crimea').
  return [...name.matchAll(WORD)].map(([text]) => ({ text: text.replace(/['’]+$/, ''), token: foldToken(text) })).filter((w) => w.token !== '');
}

export const tokensOf = (name: string): string[] => wordsOf(name).map((w) => w.token);

/** Two spellings of one name in any order, case or punctuation share this key. */
export const nameKey = (name: string): string => tokensOf(name).sort().join(' ');

/** A query as a person would type it from these words: single spaces, no list punctuation. */
export const joinWords = (words: readonly Word[]): string => words.map((w) => w.text).join(' ');

const NON_LATIN = /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u;
export const isLatinName = (name: string): boolean => !NON_LATIN.test(name);

/** A name the organization families start from: Latin script, no bracketed part (the bracket rows have those). */
export const isPlainName = (name: string): boolean => isLatinName(name) && !name.includes('(');

/** Connectives that cannot end or start a name: left dangling when the words next to them are taken out. */
export const DANGLING = new Set(['the', 'of', 'and', 'for', 'in', 'on', 'at', 'to']);

/** Particles and connectives: part of a name, never what tells it apart. */
// biome-ignore format: a word table, packed by hand
export const CONNECTIVES = new Set([
  'the', 'of', 'and', 'for', 'in', 'on', 'at', 'to', 'de', 'del', 'la', 'le', 'les', 'des', 'du', 'da', 'di', 'al', 'el', 'y', 'e', 'i', 'und', 'et', 've',
]);

/** `replacement` written in the case style of `original` (AIR → AIRLINES, Air → Airlines). */
export function inStyleOf(original: string, replacement: string): string {
  if (original === original.toUpperCase()) return replacement.toUpperCase();
  if (original === original.toLowerCase()) return replacement.toLowerCase();
  return (replacement[0]?.toUpperCase() ?? '') + replacement.slice(1).toLowerCase();
}
