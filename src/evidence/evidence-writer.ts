/**
 * The few layout pieces the evidence document is made of (headings, paragraphs, label/value
 * fields, ruled tables that break across pages with their header repeated), over a pdfkit document.
 * Every string goes through textRuns, so names in any script are drawn by a font that has them and
 * right-to-left phrases read right to left. Page headers and "page X of Y" are stamped at the end,
 * once the page count is known.
 */
import type { FontName } from './evidence-fonts.ts';
import { type GlyphCoverage, textRuns } from './text-runs.ts';

export type Column = { title: string; width: number };

/** Column titles with their shares of the text width. */
export const columns = (...specs: [title: string, share: number][]): Column[] => specs.map(([title, width]) => ({ title, width }));
export type TableRow = { cells: string[] /** Drawn under the cells across the whole row (a hash too long for a column). */; note?: string };

const SIZE = { title: 17, heading: 12, subheading: 10, body: 9, table: 8, stamp: 7.5 };
const GREY = '#555555';
const RULE = '#bbbbbb';
const HEADER_FILL = '#eeeeee';
const CELL_PAD = 3;
/** The rows a table longer than a page starts with on the page it starts on. */
const FIRST_ROWS = 3;

type DrawOptions = { font?: FontName; size?: number; color?: string; align?: 'left' | 'right' | 'center'; lineBreak?: boolean };

export class EvidenceWriter {
  constructor(
    readonly doc: PDFKit.PDFDocument,
    private readonly coverage: GlyphCoverage,
  ) {}

  private get left() {
    return this.doc.page.margins.left;
  }

  get width() {
    return this.doc.page.width - this.doc.page.margins.left - this.doc.page.margins.right;
  }

  private get bottom() {
    return this.doc.page.height - this.doc.page.margins.bottom;
  }

  /** Starts a new page when fewer than `height` points (at most a page) are left on this one. */
  ensureSpace(height: number) {
    if (this.doc.y + Math.min(height, this.bottom - this.doc.page.margins.top) > this.bottom) this.doc.addPage();
  }

  /** The height a page gives to its text, between the margins. */
  get textHeight() {
    return this.bottom - this.doc.page.margins.top;
  }

  /**
   * A box of the text width and `height` points (at most a page) for a drawing, on this page or
   * the next; what is written after goes below it.
   */
  reserve(height: number): { x: number; y: number; width: number; height: number } {
    this.ensureSpace(height);
    const box = { x: this.left, y: this.doc.y, width: this.width, height: Math.min(height, this.bottom - this.doc.y) };
    this.doc.x = this.left;
    this.doc.y = box.y + box.height;
    return box;
  }

  title(text: string) {
    this.draw(text, this.left, this.doc.y, this.width, { font: 'bold', size: SIZE.title });
    this.doc.moveDown(0.6);
  }

  /** A section heading, kept on the same page as the next `keepWith` points of content. */
  heading(text: string, keepWith = 50) {
    this.doc.moveDown(0.8);
    this.ensureSpace(24 + keepWith);
    this.draw(text, this.left, this.doc.y, this.width, { font: 'bold', size: SIZE.heading });
    const y = this.doc.y + 1;
    this.doc
      .moveTo(this.left, y)
      .lineTo(this.left + this.width, y)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    this.doc.y = y + 5;
  }

  subheading(text: string) {
    this.doc.moveDown(0.5);
    this.ensureSpace(60);
    this.draw(text, this.left, this.doc.y, this.width, { font: 'bold', size: SIZE.subheading });
    this.doc.moveDown(0.3);
  }

  paragraph(text: string, options: DrawOptions = {}) {
    const size = options.size ?? SIZE.body;
    this.ensureSpace(this.measure(text, this.width, { ...options, size }));
    this.draw(text, this.left, this.doc.y, this.width, { ...options, size });
    this.doc.moveDown(0.4);
  }

  /** Label and value pairs, the label in grey on the left. */
  fields(rows: [label: string, value: string][]) {
    const labelWidth = 120;
    for (const [label, value] of rows) {
      const height = Math.max(this.measure(label, labelWidth - CELL_PAD), this.measure(value, this.width - labelWidth)) + 2;
      this.ensureSpace(height);
      const y = this.doc.y;
      this.draw(label, this.left, y, labelWidth - CELL_PAD, { color: GREY });
      this.draw(value, this.left + labelWidth, y, this.width - labelWidth);
      this.doc.y = y + height;
    }
    this.doc.moveDown(0.3);
  }

  /**
   * A ruled table; column widths are shares of the text width. A table that fits on one page is
   * not split; a longer one breaks between rows, with its header repeated, and starts on this
   * page when its header and first rows fit: moving it whole would leave the page empty for nothing.
   */
  table(columns: Column[], rows: TableRow[]) {
    const header: TableRow = { cells: columns.map((c) => c.title) };
    const widths = this.columnWidths(columns);
    const whole = this.tableHeight(columns, rows);
    this.ensureSpace(whole <= this.textHeight ? whole : this.tableHeight(columns, rows.slice(0, FIRST_ROWS)));
    this.drawRow(widths, header, true);
    for (const row of rows) {
      if (this.doc.y + this.rowHeight(widths, row, false) > this.bottom) {
        this.doc.addPage();
        this.drawRow(widths, header, true);
      }
      this.drawRow(widths, row, false);
    }
    this.doc.x = this.left;
    this.doc.moveDown(0.5);
  }

  /** The table, or a sentence saying there is nothing to list. */
  tableOr(whenEmpty: string, columns: Column[], rows: TableRow[]) {
    if (rows.length === 0) this.paragraph(whenEmpty);
    else this.table(columns, rows);
  }

  /** The height table() will take, to keep a heading with the table it introduces. */
  tableHeight(columns: Column[], rows: TableRow[]): number {
    const widths = this.columnWidths(columns);
    const header: TableRow = { cells: columns.map((c) => c.title) };
    return [header, ...rows].reduce((sum, row, i) => sum + this.rowHeight(widths, row, i === 0), 0);
  }

  private columnWidths(columns: Column[]): number[] {
    const shares = columns.reduce((sum, c) => sum + c.width, 0);
    return columns.map((c) => (c.width / shares) * this.width);
  }

  private cellStyle = (header: boolean): DrawOptions => ({ font: header ? 'bold' : 'body', size: SIZE.table });

  private rowHeights(widths: number[], row: TableRow, header: boolean) {
    const style = this.cellStyle(header);
    const cells = Math.max(...row.cells.map((cell, i) => this.measure(cell, (widths[i] as number) - 2 * CELL_PAD, style)));
    const note = row.note ? this.measure(row.note, this.width - 2 * CELL_PAD, style) + CELL_PAD : 0;
    return { cells, note };
  }

  private rowHeight(widths: number[], row: TableRow, header: boolean): number {
    const { cells, note } = this.rowHeights(widths, row, header);
    return cells + note + 2 * CELL_PAD;
  }

  private drawRow(widths: number[], row: TableRow, header: boolean) {
    const style = this.cellStyle(header);
    const { cells, note } = this.rowHeights(widths, row, header);
    const height = cells + note + 2 * CELL_PAD;
    const top = this.doc.y;
    if (header) this.doc.rect(this.left, top, this.width, height).fill(HEADER_FILL);
    let x = this.left;
    row.cells.forEach((cell, i) => {
      this.draw(cell, x + CELL_PAD, top + CELL_PAD, (widths[i] as number) - 2 * CELL_PAD, style);
      x += widths[i] as number;
    });
    if (row.note) this.draw(row.note, this.left + CELL_PAD, top + CELL_PAD + cells + CELL_PAD, this.width - 2 * CELL_PAD, { ...style, color: GREY });
    this.doc
      .moveTo(this.left, top + height)
      .lineTo(this.left + this.width, top + height)
      .lineWidth(0.4)
      .strokeColor(RULE)
      .stroke();
    this.doc.y = top + height;
  }

  /** Header line and "Page X of Y" on every page, written into the margins once all pages exist. */
  stampPages(header: string) {
    const { start, count } = this.doc.bufferedPageRange();
    for (let i = 0; i < count; i++) {
      this.doc.switchToPage(start + i);
      const margins = { ...this.doc.page.margins };
      // pdfkit starts a new page for text below the bottom margin; the footer lives there.
      this.doc.page.margins = { ...margins, top: 0, bottom: 0 };
      const style: DrawOptions = { size: SIZE.stamp, color: GREY, lineBreak: false };
      this.draw(header, margins.left, 28, this.width, style);
      this.doc
        .moveTo(margins.left, 40)
        .lineTo(margins.left + this.width, 40)
        .lineWidth(0.4)
        .strokeColor(RULE)
        .stroke();
      this.draw(`Page ${i + 1} of ${count}`, margins.left, this.doc.page.height - 34, this.width, { ...style, align: 'right' });
      this.doc.page.margins = margins;
    }
  }

  private measure(text: string, width: number, options: DrawOptions = {}): number {
    const plain = textRuns(text, this.coverage)
      .map((run) => run.text)
      .join('');
    this.doc.font(options.font ?? 'body').fontSize(options.size ?? SIZE.body);
    return this.doc.heightOfString(plain || ' ', { width });
  }

  /** Draws text at a point, one text call per run, continuing on the same line across runs. */
  private draw(text: string, x: number, y: number, width: number, options: DrawOptions = {}) {
    const runs = textRuns(text, this.coverage);
    const base = options.font ?? 'body';
    this.doc.fontSize(options.size ?? SIZE.body).fillColor(options.color ?? 'black');
    const common = { width, align: options.align ?? 'left', lineBreak: options.lineBreak ?? true };
    if (runs.length === 0) runs.push({ text: '', font: 'body', rtl: false });
    runs.forEach((run, i) => {
      this.doc.font(run.font === 'fallback' ? 'fallback' : base);
      const continued = i < runs.length - 1;
      if (i === 0) this.doc.text(run.text, x, y, { ...common, continued });
      else this.doc.text(run.text, { ...common, continued });
    });
    this.doc.x = this.left;
    this.doc.font('body').fillColor('black');
  }
}
