/**
 * A small OpenDocument spreadsheet (.ods) reader: enough for lists published as spreadsheets.
 * It unzips `content.xml` with fflate and scans its tables with regular expressions instead of a
 * DOM (the UK file's 7 MB of XML would otherwise be built into a tree only to be flattened).
 * Repeated cells and rows (`table:number-columns-repeated`, `table:number-rows-repeated`) are
 * expanded, except runs of empty cells at a row's end and empty rows, which spreadsheets repeat a
 * million times to fill the sheet and which carry nothing.
 */
import { unzipSync } from 'fflate';
import { detachedString } from '../detached-string.ts';
import { ListFormatError } from './list-format-error.ts';

export type OdsSheet = { name: string; rows: string[][] };

const MIMETYPE = 'application/vnd.oasis.opendocument.spreadsheet';
const TABLE = /<table:table(?=[\s>])([^>]*)>([\s\S]*?)<\/table:table>/g;
const ROW = /<table:table-row(?=[\s>/])([^>]*?)(?:\/>|>([\s\S]*?)<\/table:table-row>)/g;
const CELL = /<table:(?:covered-)?table-cell(?=[\s>/])([^>]*?)(?:\/>|>([\s\S]*?)<\/table:(?:covered-)?table-cell>)/g;

/** The sheets of an .ods file, each as rows of cell texts (empty rows left out). */
export function readOdsSheets(bytes: Uint8Array): OdsSheet[] {
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, { filter: (file) => file.name === 'mimetype' || file.name === 'content.xml' });
  } catch (error) {
    throw new ListFormatError(`This is not an OpenDocument spreadsheet: it cannot be unzipped (${(error as Error).message})`);
  }
  const mimetype = files.mimetype && new TextDecoder().decode(files.mimetype).trim();
  if (mimetype !== MIMETYPE) throw new ListFormatError(`This is not an OpenDocument spreadsheet: its mimetype is ${mimetype ? `"${mimetype}"` : 'missing'}`);
  if (!files['content.xml']) throw new ListFormatError('The spreadsheet has no content.xml');
  const xml = new TextDecoder().decode(files['content.xml']);
  if (!/<\/office:document-content>\s*$/.test(xml)) throw new ListFormatError('The spreadsheet content is truncated: content.xml does not end its document');

  const sheets: OdsSheet[] = [];
  for (const [, tableAttributes = '', body = ''] of xml.matchAll(TABLE)) {
    sheets.push({ name: decodeEntities(attribute(tableAttributes, 'table:name') ?? ''), rows: readRows(body) });
  }
  return sheets;
}

function readRows(table: string): string[][] {
  const rows: string[][] = [];
  for (const [, rowAttributes = '', body = ''] of table.matchAll(ROW)) {
    const cells = readCells(body);
    if (cells.length === 0) continue;
    const repeated = Number(attribute(rowAttributes, 'table:number-rows-repeated') ?? 1);
    for (let i = 0; i < repeated; i++) rows.push(i === 0 ? cells : [...cells]);
  }
  return rows;
}

function readCells(row: string): string[] {
  const cells: string[] = [];
  let pendingEmpty = 0;
  for (const [, attributes = '', body = ''] of row.matchAll(CELL)) {
    const repeated = Number(attribute(attributes, 'table:number-columns-repeated') ?? 1);
    const value = cellValue(attributes, body);
    if (value === '') {
      pendingEmpty += repeated;
      continue;
    }
    for (; pendingEmpty > 0; pendingEmpty--) cells.push('');
    // A copy of the text, not a slice of the document: a slice keeps all of content.xml alive
    // (15 MiB for the UK list) for as long as any one cell is.
    const copy = detachedString(value);
    for (let i = 0; i < repeated; i++) cells.push(copy);
  }
  return cells;
}

/** Numbers and dates by their typed value; text as its paragraphs joined by line breaks. */
function cellValue(attributes: string, body: string): string {
  const type = attribute(attributes, 'office:value-type');
  if (type === 'float' || type === 'percentage' || type === 'currency') return attribute(attributes, 'office:value') ?? '';
  if (type === 'date') return attribute(attributes, 'office:date-value') ?? '';
  const paragraphs = [...body.matchAll(/<text:p\b[^>]*?(?:\/>|>([\s\S]*?)<\/text:p>)/g)].map(([, p = '']) =>
    decodeEntities(
      p
        .replace(/<text:s\b[^>]*?text:c="(\d+)"[^>]*\/>/g, (_, n: string) => ' '.repeat(Number(n)))
        .replace(/<text:s\b[^>]*\/>/g, ' ')
        .replace(/<text:tab\b[^>]*\/>/g, '\t')
        .replace(/<text:line-break\b[^>]*\/>/g, '\n')
        .replace(/<[^>]+>/g, ''),
    ),
  );
  return paragraphs.join('\n').trim();
}

const ATTRIBUTES = new Map<string, RegExp>();
function attribute(attributes: string, name: string): string | undefined {
  let pattern = ATTRIBUTES.get(name);
  if (!pattern) ATTRIBUTES.set(name, (pattern = new RegExp(`\\b${name}="([^"]*)"`)));
  return pattern.exec(attributes)?.[1];
}

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, entity: string) => {
    if (entity[0] === '#') return String.fromCodePoint(entity[1] === 'x' || entity[1] === 'X' ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1)));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[entity.toLowerCase()] as string;
  });
}
