/**
 * Splits a string into the runs pdfkit can draw correctly, each drawn by its own text call.
 *
 * Right-to-left words: pdfkit cuts a line into words at spaces and hands each word, with its
 * trailing space, to fontkit, which shapes Arabic (initial, medial and final forms, lam-alef) and
 * reverses a right-to-left word's glyphs. Left alone, a phrase such as "عبد الله" comes out with its
 * words in left-to-right order and each word's space on the wrong side. So consecutive
 * right-to-left words are joined by no-break spaces into one run (pdfkit does not cut at those,
 * and fontkit reverses the whole phrase), and the quotes, brackets and spaces around the phrase
 * stay in the surrounding left-to-right runs. This is a small part of the Unicode bidirectional
 * algorithm, enough for names in a left-to-right document; a right-to-left paragraph with
 * embedded numbers or Latin words would need the full algorithm.
 *
 * Missing glyphs: a character the body font cannot draw is drawn from the fallback font when that
 * has it, and otherwise replaced by its transliteration between ‹ › (any-ascii), so that a Chinese
 * name reads "‹JinZhengEn›" instead of empty boxes.
 */
import anyAscii from 'any-ascii';

export type TextRun = { text: string; font: 'body' | 'fallback'; rtl: boolean };

export type GlyphCoverage = { body: (codePoint: number) => boolean; fallback?: (codePoint: number) => boolean };

const NO_BREAK_SPACE = '\u00a0';
const RTL_SCRIPTS = '\\p{Script=Arabic}\\p{Script=Hebrew}\\p{Script=Syriac}\\p{Script=Thaana}';
const RTL_LETTER = new RegExp(`[${RTL_SCRIPTS}]`, 'u');
const LTR_LETTER = new RegExp(`(?![${RTL_SCRIPTS}])\\p{L}`, 'u');
/** A word's leading and trailing neutral characters (quotes, brackets, commas) and its core. */
const WORD_PARTS = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}\p{M}]*)$/su;

export function textRuns(text: string, coverage: GlyphCoverage): TextRun[] {
  const runs: TextRun[] = [];
  for (const piece of coveragePieces(text, coverage)) {
    if (piece.font === 'fallback') runs.push({ text: piece.text, font: 'fallback', rtl: false });
    else for (const run of directionRuns(piece.text)) runs.push({ ...run, font: 'body' });
  }
  return mergeLeftToRight(runs);
}

type Piece = { text: string; font: 'body' | 'fallback' | 'transliterate' };

/** Cuts the text where the font that can draw it changes; undrawable pieces become ‹transliterations›. */
function coveragePieces(text: string, coverage: GlyphCoverage): { text: string; font: 'body' | 'fallback' }[] {
  const pieces: Piece[] = [];
  for (const char of text) {
    const codePoint = char.codePointAt(0) as number;
    const font = coverage.body(codePoint) ? 'body' : coverage.fallback?.(codePoint) ? 'fallback' : 'transliterate';
    const last = pieces.at(-1);
    if (last?.font === font) last.text += char;
    else pieces.push({ text: char, font });
  }
  return pieces.map((p) => (p.font === 'transliterate' ? { text: `‹${anyAscii(p.text) || '?'}›`, font: 'body' } : { text: p.text, font: p.font }));
}

/** Left-to-right runs and right-to-left phrases, in logical order (the document reads left to right). */
export function directionRuns(text: string): { text: string; rtl: boolean }[] {
  if (!RTL_LETTER.test(text)) return [{ text, rtl: false }];
  const runs: { text: string; rtl: boolean }[] = [];
  let ltr = '';
  let phrase: string[] = [];
  let phraseOpen = false;
  const closePhrase = () => {
    if (phrase.length === 0) return;
    if (ltr) runs.push({ text: ltr, rtl: false });
    runs.push({ text: phrase.join(NO_BREAK_SPACE), rtl: true });
    ltr = '';
    phrase = [];
    phraseOpen = false;
  };
  text.split(' ').forEach((word, i) => {
    const separator = i > 0 ? ' ' : '';
    const [, lead = '', core = '', trail = ''] = WORD_PARTS.exec(word) ?? [];
    if (!(RTL_LETTER.test(core) && !LTR_LETTER.test(core))) {
      closePhrase();
      ltr += separator + word;
      return;
    }
    if (phraseOpen && lead === '') phrase.push(core);
    else {
      closePhrase();
      ltr += separator + lead;
      phrase = [core];
    }
    phraseOpen = true;
    if (trail) {
      closePhrase();
      ltr = trail;
    }
  });
  closePhrase();
  if (ltr) runs.push({ text: ltr, rtl: false });
  return runs;
}

/** Neighbouring left-to-right runs in the same font are one text call; right-to-left phrases stay alone. */
function mergeLeftToRight(runs: TextRun[]): TextRun[] {
  const merged: TextRun[] = [];
  for (const run of runs) {
    const last = merged.at(-1);
    if (last && !last.rtl && !run.rtl && last.font === run.font) last.text += run.text;
    else merged.push({ ...run });
  }
  return merged;
}
