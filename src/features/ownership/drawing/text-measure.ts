/**
 * How wide a line of text will be, without a font at hand: the layout is pure (no font file is
 * read), yet boxes must be sized before either renderer draws. The widths are DejaVu Sans's
 * (the font the evidence PDF embeds and the SVG asks for first), rounded up by class of
 * character, so an estimate errs wide; each renderer still fits a line that comes out wider.
 */

const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u;
const NARROW = /[fijlrtI.,:;'|!()[\]{}`"]/;
const BROAD = /[mwMW%@]/;
const UPPER = /\p{Lu}/u;
const DIGIT = /\p{Nd}/u;
const LETTER = /\p{L}/u;
const MARK = /\p{M}/u;

/** The advance of one character, in ems. */
function advance(char: string): number {
  if (char === ' ') return 0.32;
  if (MARK.test(char)) return 0;
  if (WIDE.test(char)) return 1;
  if (NARROW.test(char)) return 0.38;
  if (BROAD.test(char)) return 0.98;
  if (UPPER.test(char)) return 0.72;
  if (DIGIT.test(char)) return 0.64;
  if (LETTER.test(char)) return 0.62;
  return 0.5;
}

/** The estimated width of `text` at `size`; bold type is about an eighth wider. */
export function textWidth(text: string, size: number, bold = false): number {
  let ems = 0;
  for (const char of text) ems += advance(char);
  return ems * size * (bold ? 1.12 : 1);
}

/** `text`, cut with an ellipsis where it would pass `width`. */
export function fitText(text: string, width: number, size: number, bold = false): string {
  if (textWidth(text, size, bold) <= width) return text;
  const limit = width - textWidth('…', size, bold);
  let out = '';
  let used = 0;
  for (const char of text) {
    const next = advance(char) * size * (bold ? 1.12 : 1);
    if (used + next > limit) break;
    out += char;
    used += next;
  }
  return `${out.trimEnd()}…`;
}

/** `text` broken at spaces into at most `maxLines` lines of `width`, the last cut with an ellipsis if need be. */
export function wrapText(text: string, width: number, size: number, bold: boolean, maxLines: number): string[] {
  const lines: string[] = [];
  let rest = text.trim();
  while (lines.length < maxLines - 1 && textWidth(rest, size, bold) > width) {
    const words = rest.split(' ');
    let line = '';
    let taken = 0;
    while (taken < words.length && textWidth(line ? `${line} ${words[taken]}` : (words[taken] as string), size, bold) <= width) {
      line = line ? `${line} ${words[taken]}` : (words[taken] as string);
      taken++;
    }
    // A first word wider than the line: cut it rather than leave the line empty.
    if (taken === 0) break;
    lines.push(line);
    rest = words.slice(taken).join(' ');
  }
  lines.push(fitText(rest, width, size, bold));
  return lines;
}
