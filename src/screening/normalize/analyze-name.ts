/**
 * A name as the matcher sees it: folded tokens, each with its role and the keys that find it
 * again under another spelling (Double Metaphone codes, the consonant skeleton). The index runs
 * this on every list name once; the query runs it on each subject name.
 */
import { doubleMetaphone } from 'double-metaphone';
import { consonantSkeleton, foldWords, type Script } from './fold.ts';
import { tagRoles, type WordRole } from './name-vocabulary.ts';
import { spellOutAbbreviations } from './org-abbreviations.ts';

export type NameToken = {
  /** The folded word; for a legal form its class written `~llc`, `~jsc` …; for a number its digits. */
  text: string;
  /** The words as they appeared (folded), for the explanation. */
  shown: string;
  script: Script;
  role: WordRole;
  /** The character a syllabic-script token was read from (see fold.ts). */
  glyph?: string;
};

/** Role weights before rarity: how much identity a word of that role carries. */
export const ROLE_WEIGHT: Record<WordRole, number> = {
  name: 1,
  patronymic: 0.6,
  number: 1.2,
  particle: 0.25,
  connective: 0.1,
  legal_form: 0.3,
  honorific: 0,
};

export function analyzeName(name: string, isPerson: boolean): NameToken[] {
  const folded = foldWords(name, { person: isPerson });
  const words = isPerson ? folded : spellOutAbbreviations(folded);
  const texts = words.map((w) => w.text);
  const tokens: NameToken[] = [];
  for (const span of tagRoles(texts, isPerson)) {
    if (span.role === 'honorific') continue;
    const first = words[span.start];
    if (first === undefined) continue;
    const shown = texts.slice(span.start, span.start + span.length).join(' ');
    tokens.push({
      text: span.role === 'legal_form' ? `~${span.legalForm}` : (span.numeral ?? shown),
      shown,
      script: first.script,
      role: span.role,
      ...(span.length === 1 && first.glyph && { glyph: first.glyph }),
    });
  }
  return tokens;
}

/** Phonetic codes for a token; empty for short words and for unwritten-vowel scripts. */
export function phoneticKeys(token: Pick<NameToken, 'text' | 'script' | 'role'>): string[] {
  if ((token.role !== 'name' && token.role !== 'patronymic') || token.script === 'abjad' || token.script === 'han' || token.text.length < 4) return [];
  const [primary, secondary] = doubleMetaphone(token.text);
  return primary === secondary || !secondary ? [primary] : [primary, secondary];
}

export const skeletonKey = (text: string): string => consonantSkeleton(text);
