/**
 * Watchlist entries as CSV: the columns an import reads and an export writes (the same, so an
 * export imports back unchanged), each row turned into the body a JSON import would carry, and
 * a problem found in that body located back in the file by row and column.
 *
 * Columns (a header row names them, in any order; only name, reason and severity are required):
 * external_id, type, name, aliases, dates_of_birth, countries, identifiers, reason, severity,
 * expires_at. A list cell holds its items separated by `|`; an identifier is
 * `type:value[:country]`. An empty cell is an absent field.
 */

import { CsvSyntaxError, csvRecord, parseCsv, unguardedCell } from '../../csv-text.ts';
import type { FieldError } from '../../http/errors.ts';
import type { IdentifierBody } from '../../http/identifier-fields.ts';
import { type EntryBody, LIST_SEPARATOR } from './entry-input.ts';
import { refuseImport } from './import-refusal.ts';

export const CSV_COLUMNS = [
  'external_id',
  'type',
  'name',
  'aliases',
  'dates_of_birth',
  'countries',
  'identifiers',
  'reason',
  'severity',
  'expires_at',
] as const;
type Column = (typeof CSV_COLUMNS)[number];
const REQUIRED_COLUMNS: readonly Column[] = ['name', 'reason', 'severity'];

/** A problem in a CSV import: where it is in the file, besides the pointer into the equivalent JSON import. */
export type CsvFieldError = FieldError & { row?: number; column?: string };

/** The rows of a CSV import as JSON import bodies, and the row each came from. */
export type CsvEntries = { bodies: EntryBody[]; rows: number[] };

/** Reads the file; a file that cannot be read as entries (syntax, header, cells per row, identifier form) is refused whole, every such problem named. */
export function entriesFromCsv(text: string): CsvEntries {
  let records: ReturnType<typeof parseCsv>;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (!(error instanceof CsvSyntaxError)) throw error;
    return refuseCsv([{ pointer: '', row: error.row, detail: `row ${error.row}: ${error.message}`, in: 'body' }]);
  }
  const [header, ...rows] = records;
  if (!header)
    return refuseCsv([{ pointer: '', row: 1, detail: `row 1: the file is empty; its first row names the columns (${CSV_COLUMNS.join(',')})`, in: 'body' }]);
  const problems: CsvFieldError[] = [];
  const columns = header.cells.map((cell) => cell.trim().toLowerCase());
  columns.forEach((column, i) => {
    const known = (CSV_COLUMNS as readonly string[]).includes(column);
    if (!known || columns.indexOf(column) !== i) {
      const why = known ? 'is named twice' : `is not a column; the columns are ${CSV_COLUMNS.join(', ')}`;
      problems.push({ pointer: '', row: 1, column: header.cells[i] ?? '', detail: `row 1, column "${header.cells[i]}": ${why}`, in: 'body' });
    }
  });
  for (const required of REQUIRED_COLUMNS) {
    if (!columns.includes(required)) problems.push({ pointer: '', row: 1, column: required, detail: `row 1: the column ${required} is required`, in: 'body' });
  }
  if (problems.length > 0) return refuseCsv(problems);

  const bodies = rows.map((record, i) => {
    if (record.cells.length !== columns.length) {
      problems.push({
        pointer: `/entries/${i}`,
        row: record.row,
        detail: `row ${record.row}: has ${record.cells.length} cells; the header has ${columns.length}`,
        in: 'body',
      });
    }
    const cells = new Map(columns.map((column, c) => [column as Column, unguardedCell(record.cells[c] ?? '')]));
    return bodyOf(cells, (detail) => problems.push({ pointer: `/entries/${i}/identifiers`, row: record.row, column: 'identifiers', detail, in: 'body' }));
  });
  if (problems.length > 0) return refuseCsv(problems);
  return { bodies, rows: rows.map((record) => record.row) };
}

/** An identifier as a CSV cell's item (and the console's form) writes it: `type:value[:country]`, a value holding a colon ending in `:` when there is no country. */
export const identifierText = (i: IdentifierBody) => `${i.type}:${i.value}${i.country ? `:${i.country}` : i.value.includes(':') ? ':' : ''}`;

/** An identifier read from `type:value[:country]`; `bad` hears of an item not of that form. */
export function identifierFromText(item: string, bad: (detail: string) => void): IdentifierBody {
  const parts = item.split(':');
  if (parts.length < 2) bad(`"${item}" is not type:value or type:value:country`);
  // With three parts or more the last is the country (empty for none): a value may hold a colon.
  const [type, value, country] = parts.length < 3 ? [parts[0], parts[1]] : [parts[0], parts.slice(1, -1).join(':'), parts.at(-1)];
  return { type: (type ?? '').trim(), value: value ?? '', ...(country?.trim() && { country: country.trim() }) } as IdentifierBody;
}

function bodyOf(cells: Map<Column, string>, badIdentifier: (detail: string) => void): EntryBody {
  const cell = (column: Column) => cells.get(column) ?? '';
  const items = (column: Column) =>
    cell(column).trim() === ''
      ? undefined
      : cell(column)
          .split(LIST_SEPARATOR)
          .map((item) => item.trim());
  const identifiers = items('identifiers')?.map((item) => identifierFromText(item, badIdentifier));
  const present = <K extends string, V>(key: K, value: V | undefined) => (value === undefined || value === '' ? {} : { [key]: value });
  return {
    ...present('external_id', cell('external_id')),
    ...present('type', cell('type').trim() as EntryBody['type']),
    name: cell('name'),
    ...present('aliases', items('aliases')),
    ...present('dates_of_birth', items('dates_of_birth')),
    ...present('countries', items('countries')),
    ...present('identifiers', identifiers),
    reason: cell('reason'),
    severity: cell('severity').trim() as EntryBody['severity'],
    ...present('expires_at', cell('expires_at').trim()),
  };
}

/** Problems found in the JSON form of a CSV import, located in the file: the row, and the column the pointer's field is. */
export function locatedInCsv(errors: readonly FieldError[], rows: readonly number[]): CsvFieldError[] {
  return errors.map((error) => {
    const [, index, field] = /^\/entries\/(\d+)(?:\/([^/]+))?/.exec(error.pointer) ?? [];
    // A problem of the whole file (more rows than an import holds) is in no row.
    if (index === undefined) return { ...error, detail: `the file: ${error.detail}` };
    const row = rows[Number(index)] as number;
    const column = field && (CSV_COLUMNS as readonly string[]).includes(field) ? field : undefined;
    return { ...error, row, ...(column && { column }), detail: `${column ? `row ${row}, column ${column}` : `row ${row}`}: ${error.detail}` };
  });
}

export const refuseCsv = (errors: CsvFieldError[]): never => refuseImport('CSV file', errors, (error) => error.detail);

/** The entries as a CSV file with a header row: the import's columns, so the file imports back. */
export function entriesToCsv(bodies: Iterable<EntryBody>): string {
  const lines = [csvRecord(CSV_COLUMNS)];
  for (const body of bodies) {
    const cells: Record<Column, string> = {
      external_id: body.external_id ?? '',
      type: body.type ?? 'person',
      name: body.name,
      aliases: (body.aliases ?? []).join(LIST_SEPARATOR),
      dates_of_birth: (body.dates_of_birth ?? []).join(LIST_SEPARATOR),
      countries: (body.countries ?? []).join(LIST_SEPARATOR),
      identifiers: (body.identifiers ?? []).map(identifierText).join(LIST_SEPARATOR),
      reason: body.reason,
      severity: body.severity,
      expires_at: body.expires_at ?? '',
    };
    lines.push(csvRecord(CSV_COLUMNS.map((column) => cells[column])));
  }
  return lines.join('');
}
