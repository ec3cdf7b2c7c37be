/**
 * The real list files (../shared/data/lists, or LISTS_DATA_DIR). They are never copied into this
 * repository. Outside CI, a test that needs them is skipped with a message saying so; in CI
 * (CI=true) their absence fails the run, so a green CI always means they were tested.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DEFAULT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/data/lists');

export const listDataDir = (): string => process.env.LISTS_DATA_DIR ?? DEFAULT_DIR;

/** `false` when the data is present; otherwise the skip message (or a thrown error in CI). */
export function skipWithoutListData(): string | false {
  if (fs.existsSync(path.join(listDataDir(), 'SOURCES.md'))) return false;
  const where = `${listDataDir()} (set LISTS_DATA_DIR to another folder)`;
  if (process.env.CI === 'true') throw new Error(`CI needs the real list data, and it is not at ${where}`);
  return `skipped: the real list data is not at ${where}`;
}

export const readListFile = (relative: string): string => fs.readFileSync(path.join(listDataDir(), relative), 'latin1');
