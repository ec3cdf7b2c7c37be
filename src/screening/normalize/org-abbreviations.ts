/**
 * Abbreviations organizations' names are written with, spelled out so that both spellings meet:
 * First Bank Int'l = First International Bank, U.S. Department of State = United States
 * Department of State. English, and only abbreviations with one reading in a company's or an
 * agency's name (the common ones in rigour's org_symbols table, reference/rigour_names/symbols.yml).
 * Folded text, after apostrophes and dots are gone (int'l → intl, U.S. → us).
 */
import type { FoldedWord } from './fold.ts';

const SPELLED_OUT: Record<string, string> = {
  intl: 'international',
  natl: 'national',
  dept: 'department',
  govt: 'government',
  mgmt: 'management',
  grp: 'group',
  bros: 'brothers',
  assoc: 'association',
  assn: 'association',
  univ: 'university',
  inst: 'institute',
  mfg: 'manufacturing',
  us: 'united states',
  usa: 'united states of america',
  uk: 'united kingdom',
  uae: 'united arab emirates',
};

/** The words with each abbreviation replaced by the words it stands for, in the same script. */
export function spellOutAbbreviations(words: readonly FoldedWord[]): FoldedWord[] {
  return words.flatMap((word) => {
    const full = word.script === 'latin' ? SPELLED_OUT[word.text] : undefined;
    return full ? full.split(' ').map((text) => ({ ...word, text })) : [word];
  });
}
