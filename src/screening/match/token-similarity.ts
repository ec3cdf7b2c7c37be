/**
 * How alike two name tokens are, and why: exact, a typo within a length budget, the same sound
 * (Double Metaphone), the same consonant skeleton across scripts, an initial, or the same class
 * of legal form. Anything weaker is 0: a token pair either explains itself or does not count.
 */
import type { TokenMatchKind } from '../match-types.ts';
import { phoneticKeys } from '../normalize/analyze-name.ts';
import { editDistance } from '../normalize/edit-distance.ts';
import type { Script } from '../normalize/fold.ts';
import { isHangul, koreanSpellings } from '../normalize/korean-romanization.ts';
import { sameParticle, type WordRole } from '../normalize/name-vocabulary.ts';
import { GIVEN_NAMES } from '../normalize/nicknames.ts';
import { sameStem, TRADE_WORDS } from '../normalize/org-word-forms.ts';

/** What the scorer knows about a token, precomputed once per distinct token. */
export type TokenKeys = {
  text: string;
  script: Script;
  role: WordRole;
  phonetic: readonly string[];
  skeleton: string;
  glyph?: string;
};

export type TokenSimilarity = { similarity: number; how: TokenMatchKind };

const NONE: TokenSimilarity = { similarity: 0, how: 'unmatched_query' };
const PHONETIC = { close: 0.88, distant: 0.78 } as const;
/** Two forms of one trade word (Trade, Trading): see org-word-forms.ts. */
const WORD_FORM: TokenSimilarity = { similarity: 0.85, how: 'word_form' };

/** Edits a token of this length may absorb and still be the same name (rigour-style budget). */
export function typoBudget(length: number): number {
  if (length <= 3) return 0;
  if (length <= 5) return 1;
  if (length <= 9) return 2;
  return 3;
}

const crossScript = (a: TokenKeys, b: TokenKeys) => a.script !== b.script || a.script !== 'latin';

/** Edits allowed between two words: by the longer word, but never for a word of one or two letters. */
export const pairBudget = (a: string, b: string): number => lengthBudget(a.length, b.length);

function lengthBudget(a: number, b: number): number {
  const shorter = Math.min(a, b);
  if (shorter <= 2) return 0;
  // A dropped letter shortens "Luis" to "Lis": one edit still fits when the longer word has four.
  return shorter === 3 ? Math.min(1, typoBudget(Math.max(a, b))) : typoBudget(shorter);
}

/**
 * Endings many names share: a patronymic's (Jónsdóttir, Ivanovich), a family's (Lukashenko,
 * Margoshvili, Hasanzadeh), a compound's (Shamsuddin, Nasrullah). Two names with the same ending
 * differ only where they begin, so their beginnings must be one name, within two edits (or their
 * own typo budget) or of one sound (Semyonovich, Semenovich): the shared ending makes Jónsdóttir
 * look like Tómasdóttir and Shamsuddin like Shahabuddin, not the same name.
 */
const SHARED_ENDINGS = ['dottir', 'sson', 'ovich', 'evich', 'ovna', 'evna', 'enko', 'shvili', 'zadeh', 'oglu', 'uddin', 'addin', 'ullah', 'allah'];

function differentStems(a: string, b: string): boolean {
  if (a.charCodeAt(a.length - 1) !== b.charCodeAt(b.length - 1)) return false;
  let ending: string | undefined;
  for (const e of SHARED_ENDINGS) if (a.endsWith(e) && b.endsWith(e)) ending = e;
  if (!ending) return false;
  const stemLengthA = a.length - ending.length;
  const stemLengthB = b.length - ending.length;
  // Two edits are typos however short the beginnings (Badullah for Abdullah, Vaeryevna for
  // Valerievna); a long word's third is not granted when its length is the shared ending.
  const budget = Math.max(2, lengthBudget(stemLengthA, stemLengthB));
  // Sounding alike needs spellings within half a word, as for whole words.
  const reach = Math.max(budget, Math.ceil(Math.min(stemLengthA, stemLengthB) / 2));
  const distance = editDistance(a, b, reach, stemLengthA, stemLengthB);
  if (distance <= budget) return false;
  if (distance > reach) return true;
  const [stemA, stemB] = [a.slice(0, stemLengthA), b.slice(0, stemLengthB)];
  const codes = phoneticKeys({ text: stemA, script: 'latin', role: 'name' });
  return !phoneticKeys({ text: stemB, script: 'latin', role: 'name' }).some((code) => codes.includes(code));
}

export function tokenSimilarity(a: TokenKeys, b: TokenKeys): TokenSimilarity {
  if (a.role === 'legal_form' || b.role === 'legal_form') {
    if (a.role !== b.role) return NONE;
    // Another legal form is a small difference: companies re-register, and lists abbreviate.
    return { similarity: a.text === b.text ? 1 : 0.75, how: 'legal_form' };
  }
  // Two characters with one reading are two names (高市, 高石): the reading alone is weak evidence.
  if (a.glyph && b.glyph && a.glyph !== b.glyph) return a.text === b.text ? { similarity: 0.6, how: 'transliterated' } : NONE;
  if (a.text === b.text) return { similarity: 1, how: crossScript(a, b) ? 'transliterated' : 'exact' };
  if (a.role === 'particle' && b.role === 'particle') return sameParticle(a.text, b.text) ? { similarity: 0.9, how: 'phonetic' } : NONE;
  // Numbers are identities (a vessel's hull number, a company's "No. 2"): exact or nothing.
  if (a.role === 'number' || b.role === 'number') return NONE;

  // A Hangul syllable against a Latin spelling: any of its usual romanizations (gim = Kim, i = Lee).
  if (isHangul(a.glyph) !== isHangul(b.glyph)) {
    const [hangul, latin] = isHangul(a.glyph) ? [a, b] : [b, a];
    if (koreanSpellings(hangul.text).includes(latin.text)) return { similarity: 0.9, how: 'transliterated' };
  }
  // Written without vowels on one side: only the consonant skeleton can be compared. A skeleton of
  // one or two consonants is shared by many names, so it counts only against a short word (علي = Ali).
  if (a.script === 'abjad' || b.script === 'abjad') {
    if (a.skeleton.length < 3 || b.skeleton.length < 3) {
      const short = a.skeleton.length > 0 && a.skeleton === b.skeleton && Math.max(a.text.length, b.text.length) <= 4;
      return short ? { similarity: 0.75, how: 'transliterated' } : NONE;
    }
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

  if (GIVEN_NAMES.same(a.text, b.text)) return { similarity: 0.9, how: 'nickname' };
  if (TRADE_WORDS.same(a.text, b.text)) return { similarity: 0.9, how: 'word_form' };
  if (differentStems(a.text, b.text)) return NONE;
  const spelled = spellingSimilarity(a, b);
  return spelled.similarity < WORD_FORM.similarity && sameStem(a.text, b.text) ? WORD_FORM : spelled;
}

/**
 * A typo within the pair's budget, or the same sound. Double Metaphone codes are short and
 * vowel-blind (tingliao and daniel share TNL; romana and rehman share RMN): the same sound counts
 * only when the spellings are also within half a word of each other, and fully only within a third
 * of it (Qaddafi, Kadhafi; Mohammed, Muhammad). Beyond that (Hussein, Husayn) it is a weaker sign,
 * which two such words together do not make a match. One edit distance serves both.
 */
function spellingSimilarity(a: TokenKeys, b: TokenKeys): TokenSimilarity {
  const shorter = Math.min(a.text.length, b.text.length);
  const budget = pairBudget(a.text, b.text);
  const sounds = shareCode(a.phonetic, b.phonetic);
  const reach = sounds ? Math.max(budget, Math.ceil(shorter / 2)) : budget;
  if (reach === 0) return NONE;
  const distance = editDistance(a.text, b.text, reach);
  // A first letter that differs is a weaker sign than an edit inside the word.
  const firstLetterPenalty = a.text[0] === b.text[0] ? 0 : 0.05;
  const typo = budget > 0 && distance <= budget ? 1 - (0.8 * distance) / Math.max(a.text.length, b.text.length) - firstLetterPenalty : 0;
  const phonetic = !sounds ? 0 : distance * 3 <= shorter ? PHONETIC.close : distance <= Math.ceil(shorter / 2) ? PHONETIC.distant : 0;
  if (phonetic > typo) return { similarity: phonetic, how: 'phonetic' };
  if (typo >= 0.7) return { similarity: typo, how: 'typo' };
  return NONE;
}

function shareCode(a: readonly string[], b: readonly string[]): boolean {
  for (const code of a) if (b.includes(code)) return true;
  return false;
}
