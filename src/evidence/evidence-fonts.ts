/**
 * The fonts the evidence PDF embeds: DejaVu Sans (regular and bold), vendored in assets/fonts with
 * its licence so that a machine without the font package renders the same bytes, and an optional
 * fallback font for the scripts DejaVu Sans lacks (see EvidenceRenderOptions). pdfkit embeds only
 * the glyphs used, so a one-page document carries tens of kilobytes of font, not the whole file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EvidenceRenderOptions } from './evidence-input.ts';
import type { GlyphCoverage } from './text-runs.ts';

const FONT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../assets/fonts');
export const BODY_FONT_FILE = path.join(FONT_DIR, 'DejaVuSans.ttf');
export const BOLD_FONT_FILE = path.join(FONT_DIR, 'DejaVuSans-Bold.ttf');

export type FontName = 'body' | 'bold' | 'fallback';

/** Read once per process: the files never change while it runs. */
let vendored: { body: Buffer; bold: Buffer } | undefined;
const vendoredFonts = () => (vendored ??= { body: fs.readFileSync(BODY_FONT_FILE), bold: fs.readFileSync(BOLD_FONT_FILE) });

/**
 * pdfkit's typings do not expose the fontkit font behind the current font; its glyph coverage is
 * what decides which font draws a character, so it is read through this narrow view.
 */
type FontkitView = { _font: { font: { hasGlyphForCodePoint(codePoint: number): boolean } } };

function coverageOf(doc: PDFKit.PDFDocument, name: FontName): (codePoint: number) => boolean {
  doc.font(name);
  const font = (doc as unknown as FontkitView)._font.font;
  const known = new Map<number, boolean>();
  return (codePoint) => {
    let has = known.get(codePoint);
    if (has === undefined) known.set(codePoint, (has = font.hasGlyphForCodePoint(codePoint)));
    return has;
  };
}

/** Registers body, bold and (when configured) fallback on the document, and says which draws what. */
export function registerEvidenceFonts(doc: PDFKit.PDFDocument, options: EvidenceRenderOptions): GlyphCoverage {
  const { body, bold } = vendoredFonts();
  doc.registerFont('body', body);
  doc.registerFont('bold', bold);
  const coverage: GlyphCoverage = { body: coverageOf(doc, 'body') };
  const fallback = options.fallbackFont;
  if (fallback) {
    try {
      doc.registerFont('fallback', fs.readFileSync(fallback.path), fallback.family);
      coverage.fallback = coverageOf(doc, 'fallback');
    } catch (error) {
      throw new Error(`The evidence fallback font ${fallback.path} cannot be used: ${(error as Error).message}`, { cause: error });
    }
  }
  doc.font('body');
  return coverage;
}
