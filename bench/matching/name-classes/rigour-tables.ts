/**
 * rigour's name tables (reference/rigour_names in the list data, MIT): the organization types
 * (legal forms and designations, in many languages and spellings) and the organization
 * vocabulary (org_symbols and org_domains: the descriptive words company names are made of,
 * "international", "trading", "shipping" …). Read line by line rather than with a YAML library:
 * both files are flat lists of strings.
 */
import { readDataFile } from '../eval-data.ts';

const DIR = 'reference/rigour_names';

const unquote = (value: string) =>
  value
    .replace(/\s+#.*$/, '')
    .trim()
    .replace(/^"(.*)"$/, '$1');

/** Every spelling of every organization type: its display and compare forms and its aliases. */
export function readOrgTypeSpellings(dataDir: string): string[] {
  const out: string[] = [];
  for (const line of readDataFile(dataDir, `${DIR}/org_types.yml`).split('\n')) {
    const match = /^\s*(?:- )?(?:(display|compare|generic|aliases):\s*)?(.*)$/.exec(line);
    if (!match || line.trim().startsWith('#')) continue;
    const [, field, raw = ''] = match;
    const isItem = /^\s*- /.test(line);
    if (field === 'display' || field === 'compare' || (isItem && field === undefined)) {
      const value = unquote(raw);
      if (value !== '') out.push(value);
    }
  }
  return out;
}

/** The words of rigour's org_symbols and org_domains sections. */
export function readOrgVocabulary(dataDir: string): string[] {
  const out: string[] = [];
  let section = '';
  for (const line of readDataFile(dataDir, `${DIR}/symbols.yml`).split('\n')) {
    const top = /^([a-z_]+):/.exec(line);
    if (top) section = top[1] as string;
    const item = /^\s+- (.*)$/.exec(line);
    if (item && (section === 'org_symbols' || section === 'org_domains')) {
      const value = unquote(item[1] as string);
      if (value !== '') out.push(value);
    }
  }
  return out;
}
