import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import PDFDocument from 'pdfkit';
import { registerEvidenceFonts } from '../../../../src/evidence/evidence-fonts.ts';
import { layoutOwnershipGraph } from '../../../../src/features/ownership/drawing/layout-ownership-graph.ts';
import type { OwnershipGraphLayout } from '../../../../src/features/ownership/drawing/layout-types.ts';
import { drawOwnershipGraphPdf, type PdfBox } from '../../../../src/features/ownership/drawing/ownership-graph-pdf.ts';
import { pdfPages, skipWithoutPdftotext } from '../../../evidence/pdf-text.ts';
import { rasterize, share, skipWithoutPdftoppm } from './raster.ts';
import { NAMES, structure } from './structure.ts';

const { request, answer } = structure();
const layout = layoutOwnershipGraph(request, answer);
/** The text area of an A4 page with 40-point margins. */
const PAGE_BOX: PdfBox = { x: 40, y: 40, width: 515, height: 762 };
const FIXED = new Date('2026-11-22T15:00:00Z');

type Drawn = { pdf: Buffer; result: ReturnType<typeof drawOwnershipGraphPdf>; pages: number; position: { x: number; y: number } };

/** A one-page A4 document with the graph drawn in `box`, as the evidence PDF would hold it. */
async function drawn(graph: OwnershipGraphLayout, box: PdfBox = PAGE_BOX, registerFirst = false): Promise<Drawn> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 40, bottom: 40, left: 40, right: 40 },
    bufferPages: true,
    font: null as unknown as string,
    info: { Title: 'drawing', CreationDate: FIXED, ModDate: FIXED },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise((resolve) => doc.on('end', resolve));
  const fonts = registerFirst ? registerEvidenceFonts(doc, {}) : undefined;
  doc.y = 123;
  const result = drawOwnershipGraphPdf(doc, graph, box, { fonts });
  const position = { x: doc.x, y: doc.y };
  const pages = doc.bufferedPageRange().count;
  doc.end();
  await ended;
  return { pdf: Buffer.concat(chunks), result, pages, position };
}

describe('the ownership graph drawn in a PDF', () => {
  test('draws on one page, within its box, and leaves the document where it was', async () => {
    const { pdf, result, pages, position } = await drawn(layout);
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.equal(pages, 1);
    assert.ok(result.width <= PAGE_BOX.width + 1e-9 && result.height <= PAGE_BOX.height + 1e-9);
    assert.ok(result.scale > 0 && result.scale <= 1);
    assert.deepEqual(position, { x: 40, y: 123 });
    assert.match(pdf.toString('latin1'), /\/FontFile2/, 'the fonts are embedded');
    assert.doesNotMatch(pdf.toString('latin1'), /Helvetica/);
  });

  test('scales a drawing down to fit a small box, never up past its size', async () => {
    const small = await drawn(layout, { x: 40, y: 600, width: 200, height: 150 });
    assert.ok(small.result.scale < 0.2, `scale ${small.result.scale}`);
    assert.ok(small.result.width <= 200 + 1e-9 && small.result.height <= 150 + 1e-9);
    assert.equal(small.pages, 1, 'drawing near the foot of the page starts no new page');
    const large = await drawn(layout, { x: 0, y: 0, width: 5000, height: 5000 });
    assert.equal(large.result.scale, 1);
  });

  test('is deterministic: the same layout gives the same bytes, with the fonts given or registered by the drawing', async () => {
    const [first, second] = [await drawn(layout), await drawn(layout)];
    assert.ok(first.pdf.equals(second.pdf), 'two drawings of one layout differ');
    const registered = await drawn(layout, PAGE_BOX, true);
    assert.equal(registered.pages, 1);
    const other = await drawn(layoutOwnershipGraph(request, answer, { maxNodes: 6 }));
    assert.ok(!other.pdf.equals(first.pdf), 'another layout draws otherwise');
  });

  describe('as pdftotext reads it', { skip: skipWithoutPdftotext() }, () => {
    test('holds the names, the stakes, the statuses, the collapsed count and the legend', async () => {
      const pages = pdfPages((await drawn(layout)).pdf);
      assert.equal(pages.length, 1);
      const text = pages[0] as string;
      const expected = [
        'Delta Freight & Logistics',
        '"FZE"',
        NAMES.holding,
        'Ivan',
        "<script>alert('x')</script>",
        NAMES.sdnArabic,
        NAMES.controller,
        NAMES.cycleB,
        'OFAC_SDN RUSSIA-EO14024',
        'OFAC_SDN IRAN',
        'BIS_EL',
        'OFAC blocked · BIS restricted',
        '30%',
        '25%',
        '100%',
        '40% ↻',
        'control',
        '+300 entities',
        '300 stakes',
        'Path deciding the OFAC verdict',
        '9 of 309 parties drawn',
      ];
      for (const words of expected) assert.ok(text.includes(words), `the page reads "${words}": ${text}`);
      assert.match(text, /‹ShenZhen/, 'a Chinese name without a font that has it is transliterated, not dropped');
    });
  });

  describe('as pdftoppm renders it', { skip: skipWithoutPdftoppm() }, () => {
    test('is a picture: far from blank, with the OFAC and the BIS paths in their colours', async () => {
      const page = rasterize((await drawn(layout)).pdf, 60);
      const inked = share(page, (r, g, b) => r + g + b < 600);
      assert.ok(inked > 0.005, `${(inked * 100).toFixed(2)}% of the page is drawn`);
      // #d55e00 and #0072b2, with room for anti-aliasing.
      const vermillion = share(page, (r, g, b) => r > 170 && g > 60 && g < 130 && b < 60);
      const blue = share(page, (r, g, b) => r < 60 && g > 80 && g < 150 && b > 140);
      assert.ok(vermillion > 0.0003, `OFAC's colour covers ${(vermillion * 100).toFixed(3)}%`);
      assert.ok(blue > 0.0003, `BIS's colour covers ${(blue * 100).toFixed(3)}%`);
    });
  });
});
