/**
 * CSV text (RFC 4180) read into records and written from them: watchlist imports and exports,
 * and the audit export's lines. Read: comma-separated, fields quoted with `"` (a quote inside doubled), records ended
 * by CRLF or LF, a byte order mark ignored; a blank line is a row with no record, so row numbers
 * stay those a spreadsheet shows. Written: CRLF, quoted only where needed. Pure.
 *
 * A spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return as a
 * formula, so a written cell starting with one of those (or with the apostrophe that marks this)
 * gets an apostrophe in front, and a read cell loses it again: an export opened in a spreadsheet
 * runs nothing, and imports back as it was.
 *
 * The lists' own files are read by another reader (src/screening/lists/csv.ts): it takes tabs and
 * a DOS end-of-file byte, and forgives what publishers' files get wrong, where a caller's import
 * is refused on its first syntax error with the row it is on.
 */

/** One record and the row it was read from (the header is row 1, as a spreadsheet numbers it). */
export type CsvRecord = { row: number; cells: string[] };

export class CsvSyntaxError extends Error {
  override name = 'CsvSyntaxError';
  constructor(
    readonly row: number,
    detail: string,
  ) {
    super(detail);
  }
}

export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let row = 1;
  let quoted = false; // inside a quoted field
  let wasQuoted = false; // the current field was quoted (and has been closed)
  const endCell = () => {
    cells.push(cell);
    cell = '';
    wasQuoted = false;
  };
  const endRecord = () => {
    // A blank line is a row without a record.
    if (!(cells.length === 0 && cell === '' && !wasQuoted)) {
      endCell();
      records.push({ row, cells });
    }
    cells = [];
    cell = '';
    wasQuoted = false;
    row += 1;
  };
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  for (let i = 0; i < body.length; i++) {
    const char = body[i] as string;
    if (quoted) {
      if (char !== '"') cell += char;
      else if (body[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else {
        quoted = false;
        wasQuoted = true;
      }
    } else if (char === ',') endCell();
    else if (char === '\n' || (char === '\r' && body[i + 1] === '\n')) {
      if (char === '\r') i += 1;
      endRecord();
    } else if (wasQuoted) throw new CsvSyntaxError(row, `text after a closing quote (a quote inside a quoted cell is written "")`);
    else if (char === '"' && cell === '') quoted = true;
    else cell += char;
  }
  if (quoted) throw new CsvSyntaxError(row, 'a quoted cell is not closed before the end of the file');
  if (cells.length > 0 || cell !== '' || wasQuoted) endRecord();
  return records;
}

/** The characters that make a spreadsheet read a cell as a formula, and the apostrophe that guards them. */
const GUARDED = /^[=+\-@\t\r']/;

/** A cell's text as written: guarded against formulas, quoted when it must be. */
export function csvCell(value: string): string {
  const text = GUARDED.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A cell's text as read: without the apostrophe csvCell put before a formula character. */
export const unguardedCell = (text: string) => (text.startsWith("'") && GUARDED.test(text.slice(1)) ? text.slice(1) : text);

export const csvRecord = (cells: readonly string[]) => `${cells.map(csvCell).join(',')}\r\n`;
