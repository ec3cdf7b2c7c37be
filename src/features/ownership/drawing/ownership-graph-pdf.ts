/**
 * The drawn ownership graph on a page of a pdfkit document, in vector shapes, scaled down (never
 * up) to fit a box and centred in its width. Text goes through the evidence fonts and textRuns
 * (src/evidence/), so Arabic, Hebrew and Cyrillic names are shaped, characters the body font
 * lacks come from the fallback font or are transliterated, and a line measured wider than its
 * room is set smaller rather than running out of its node. Nothing depends on the clock: the same
 * layout draws the same content stream.
 */
import { registerEvidenceFonts } from '../../../evidence/evidence-fonts.ts';
import { type GlyphCoverage, textRuns } from '../../../evidence/text-runs.ts';
import { ASCENT, type Stroke } from './drawing-style.ts';
import { figures, type Shape } from './figures.ts';
import type { OwnershipGraphLayout, Point } from './layout-types.ts';

export type PdfBox = { x: number; y: number; width: number; height: number };

/**
 * Draws `layout`, or only `region` of it (layout units), within `box` (page coordinates, points)
 * and answers the size it took. A region is cut at its edges: what runs beyond is clipped.
 * `fonts`: the coverage registerEvidenceFonts returned when the document's fonts were registered;
 * without it, the evidence fonts are registered here. The document's position (doc.x, doc.y) is kept.
 */
export function drawOwnershipGraphPdf(
  doc: PDFKit.PDFDocument,
  layout: OwnershipGraphLayout,
  box: PdfBox,
  options: { fonts?: GlyphCoverage; region?: PdfBox | undefined } = {},
): { width: number; height: number; scale: number } {
  const coverage = options.fonts ?? registerEvidenceFonts(doc, {});
  const region = options.region ?? { x: 0, y: 0, width: layout.width, height: layout.height };
  const scale = Math.min(1, box.width / region.width, box.height / region.height);
  const left = box.x + (box.width - region.width * scale) / 2;
  const { x, y } = doc;
  const margins = { ...doc.page.margins };
  // pdfkit starts a new page for text placed below the bottom margin; the drawing may reach there.
  doc.page.margins = { ...margins, top: 0, bottom: 0 };
  doc.save();
  if (options.region) doc.rect(left, box.y, region.width * scale, region.height * scale).clip();
  doc.translate(left - region.x * scale, box.y - region.y * scale).scale(scale);
  try {
    for (const figure of figures(layout)) for (const shape of figure.shapes) drawShape(doc, shape, coverage);
  } finally {
    doc.restore();
    doc.page.margins = margins;
    doc.x = x;
    doc.y = y;
  }
  return { width: region.width * scale, height: region.height * scale, scale };
}

function setStroke(doc: PDFKit.PDFDocument, stroke: Stroke) {
  doc.lineWidth(stroke.width).strokeColor(stroke.colour);
  if (stroke.dash) doc.dash(stroke.dash[0], { space: stroke.dash[1] });
  else doc.undash();
}

function path(doc: PDFKit.PDFDocument, points: readonly Point[]) {
  points.forEach((p, i) => (i === 0 ? doc.moveTo(p.x, p.y) : doc.lineTo(p.x, p.y)));
}

function drawShape(doc: PDFKit.PDFDocument, shape: Shape, coverage: GlyphCoverage) {
  switch (shape.kind) {
    case 'rect': {
      const outline = () => doc.roundedRect(shape.x, shape.y, shape.width, shape.height, shape.radius);
      if (shape.fill) outline().fill(shape.fill);
      if (shape.stroke) {
        setStroke(doc, shape.stroke);
        outline().stroke();
      }
      return;
    }
    case 'line':
      setStroke(doc, shape.stroke);
      doc.lineJoin('round');
      path(doc, shape.points);
      doc.stroke();
      return;
    case 'polygon':
      doc.polygon(...shape.points.map((p) => [p.x, p.y])).fill(shape.fill);
      return;
    case 'text':
      drawText(doc, shape, coverage);
  }
}

/** One text call per run, placed side by side; the whole line set smaller if it is wider than its room. */
function drawText(doc: PDFKit.PDFDocument, shape: Extract<Shape, { kind: 'text' }>, coverage: GlyphCoverage) {
  const { style } = shape;
  const runs = textRuns(shape.text, coverage).map((run) => {
    const font = run.font === 'fallback' ? 'fallback' : style.bold ? 'bold' : 'body';
    return { text: run.text, font, width: doc.font(font).fontSize(style.size).widthOfString(run.text) };
  });
  const natural = runs.reduce((sum, run) => sum + run.width, 0);
  const shrink = natural > shape.maxWidth ? shape.maxWidth / natural : 1;
  const size = style.size * shrink;
  // Keep the baseline where the SVG puts it when the type is set smaller.
  const top = shape.top + ASCENT * (style.size - size);
  let x = shape.anchor === 'middle' ? shape.x - (natural * shrink) / 2 : shape.x;
  doc.fillColor(style.colour);
  for (const run of runs) {
    doc.font(run.font).fontSize(size).text(run.text, x, top, { lineBreak: false });
    x += run.width * shrink;
  }
}
