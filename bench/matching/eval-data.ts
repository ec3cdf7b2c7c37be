/**
 * Where the real list data is (`--data DIR`, else LISTS_DATA_DIR or ../shared/data/lists, as the
 * tests resolve it) and how the evaluation files are read. The data is never copied into the
 * repository; without it these scripts stop with a clear message and exit code 2.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readCsv } from '../../src/screening/lists/csv.ts';
import type { PartialDate } from '../../src/screening/model.ts';
import { listDataDir } from '../../test/helpers/list-data.ts';

export class MissingDataError extends Error {}
export class UsageError extends Error {}

/** A command-line value that must be a whole number from 1 up; a UsageError naming the flag otherwise. */
export function positiveInteger(flag: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`${flag} must be a positive whole number`);
  return value;
}

/** A missing data folder or a wrong argument ends a script with its message and exit code 2. */
export function exitOnUsageProblem(script: string, error: unknown): void {
  const parseArgsError = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
  if (!(error instanceof MissingDataError || error instanceof UsageError || parseArgsError)) throw error;
  process.stderr.write(`${script}: ${(error as Error).message}\n`);
  process.exit(2);
}

export function resolveDataDir(given: string | undefined): string {
  const dir = path.resolve(given ?? listDataDir());
  if (!fs.existsSync(path.join(dir, 'SOURCES.md'))) {
    throw new MissingDataError(`The list data is not at ${dir}: pass --data DIR (or set LISTS_DATA_DIR) to the folder holding SOURCES.md`);
  }
  return dir;
}

export function readDataFile(dir: string, relative: string, encoding: BufferEncoding = 'utf8'): string {
  const file = path.join(dir, relative);
  if (!fs.existsSync(file)) throw new MissingDataError(`${file} is missing from the list data`);
  return fs.readFileSync(file, encoding);
}

/**
 * A CSV's records, fields untrimmed (name_bench has cases that differ only in spacing); `#`
 * comment lines skipped (watchman's pairs file has no header, only comments).
 */
export function readCsvRows(dir: string, relative: string): string[][] {
  const text = readDataFile(dir, relative)
    .replace(/^\uFEFF/, '')
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .join('\n');
  return [...readCsv(text)];
}

/** A CSV with a header row, as objects keyed by column name. */
export function readCsvRecords(dir: string, relative: string): Record<string, string>[] {
  const [header, ...rows] = readCsvRows(dir, relative);
  if (!header) return [];
  return rows.map((row) => Object.fromEntries(header.map((column, i) => [column.trim(), row[i] ?? ''])));
}

/** `1965`, `1965-04` or `1965-04-29` → a partial date; anything else → undefined. */
export function parsePartialDate(text: string | undefined): PartialDate | undefined {
  const match = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(text?.trim() ?? '');
  if (!match) return undefined;
  const [, year, month, day] = match;
  return { year: Number(year), ...(month && { month: Number(month) }), ...(day && { day: Number(day) }) };
}
