/**
 * An import's rows checked whole before anything is read or written: a CSV file's rows against
 * the JSON body's schema (a JSON body was checked by its route), then every row's facts, then
 * repeats (an external id twice; two rows without one that are the same entry). One bad row
 * refuses the import, with a pointer to each problem, and in a CSV file its row and column.
 */
import type { FieldError } from '../../http/errors.ts';
import { InputChecker } from '../../http/input-checker.ts';
import { schemaProblems } from '../../http/validation.ts';
import { mapInTurns } from '../../screening/steps.ts';
import { locatedInCsv, refuseCsv } from './entry-csv.ts';
import { type CleanEntry, cleanEntry, type EntryBody } from './entry-input.ts';
import { refuseImport } from './import-refusal.ts';
import { ImportJsonBody } from './import-schemas.ts';

export type ImportSource = { format: 'json'; bodies: EntryBody[] } | { format: 'csv'; bodies: EntryBody[]; rows: number[] };

export async function checkedImport(source: ImportSource): Promise<CleanEntry[]> {
  const check = new InputChecker();
  // A CSV file's rows meet the schema here (a JSON body met it at its route); a row that fails it is not checked further.
  const schemaRefused = new Set<number>();
  if (source.format === 'csv') {
    const errors = await schemaErrors(source.bodies);
    // The file refused whole (more rows than an import holds): its rows are not looked at.
    if (errors.some((error) => rowOf(error) < 0)) refuseRows(source, errors);
    for (const error of errors) {
      check.errors.push(error);
      schemaRefused.add(rowOf(error));
    }
  }
  // Turn by turn: cleaning 50,000 rows takes about a second, which other requests do not wait out.
  const cleaned = await mapInTurns(source.bodies, (body, i) => (schemaRefused.has(i) ? undefined : cleanEntry(check, body, `/entries/${i}`)));
  const firstWithKey = new Map<string, number>();
  const firstWithFacts = new Map<string, number>();
  cleaned.forEach((entry, i) => {
    if (!entry) return;
    const [seen, key, pointer] =
      entry.externalId === null ? [firstWithFacts, entry.sha256, `/entries/${i}`] : [firstWithKey, entry.externalId, `/entries/${i}/external_id`];
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else if (entry.externalId === null)
      check.errors.push({ pointer, detail: `is the same entry as /entries/${first} (give each an external_id if both are meant)` });
    else check.errors.push({ pointer, detail: `repeats /entries/${first}/external_id (${key})` });
  });
  if (check.errors.length > 0) refuseRows(source, inRowOrder(check.errors));
  return cleaned as CleanEntry[];
}

/** The rows' problems with the import body's schema, as the service's own validator finds them (in slices: 50,000 rows do not hold the event loop). */
const schemaErrors = (bodies: EntryBody[]): Promise<FieldError[]> => schemaProblems(ImportJsonBody, { entries: bodies });

const rowOf = (error: FieldError) => Number(/^\/entries\/(\d+)/.exec(error.pointer)?.[1] ?? -1);

/** Problems by the row they are in, in the order found within a row. */
const inRowOrder = (errors: FieldError[]) =>
  errors
    .map((error, i) => ({ error, i }))
    .sort((a, b) => rowOf(a.error) - rowOf(b.error) || a.i - b.i)
    .map((e) => e.error);

/** Refuses the import, its problems located in the file it came in. */
export function refuseRows(source: ImportSource, errors: readonly FieldError[]): never {
  if (source.format === 'csv') return refuseCsv(locatedInCsv(errors, source.rows));
  return refuseImport('import', errors);
}
