/**
 * The names the unit tests use, so that set (f) never measures on them: a class tuned until its
 * unit test passes would otherwise count that very name as a found variant. Read from the test
 * sources when the set runs (every string literal under test/), so a test added tomorrow takes its
 * names out of the set without anyone editing a list. An entity is left out when one of its
 * names, in list order or as a visitor types it, is a string of a test or a run of words inside
 * one (a name of one word only when it is the whole string).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ListEntity } from '../../../src/screening/model.ts';
import { unlistName } from '../perturb.ts';
import { tokensOf } from './words.ts';

const TEST_DIR = fileURLToPath(new URL('../../../test', import.meta.url));
const LITERAL = /'((?:[^'\\\n]|\\.){3,300})'|"((?:[^"\\\n]|\\.){3,300})"|`((?:[^`\\]|\\.){3,1000})`/g;
const LONGEST_RUN = 8;

export type UnitTestNames = { has(entity: ListEntity): boolean; literals: number };

export function readUnitTestNames(dir = TEST_DIR): UnitTestNames {
  const runs = new Set<string>();
  const whole = new Set<string>();
  let literals = 0;
  const files = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
  for (const file of files) {
    for (const match of fs.readFileSync(path.join(dir, file), 'utf8').matchAll(LITERAL)) {
      const tokens = tokensOf(match[1] ?? match[2] ?? match[3] ?? '');
      if (tokens.length === 0) continue;
      literals++;
      whole.add(tokens.join(' '));
      whole.add([...tokens].sort().join(' '));
      for (let start = 0; start < tokens.length; start++) {
        for (let end = start + 2; end <= Math.min(tokens.length, start + LONGEST_RUN); end++) runs.add(tokens.slice(start, end).join(' '));
      }
    }
  }
  const named = (text: string) => {
    const tokens = tokensOf(text);
    return whole.has(tokens.join(' ')) || whole.has([...tokens].sort().join(' ')) || (tokens.length >= 2 && runs.has(tokens.join(' ')));
  };
  return { has: (entity) => entity.names.some((n) => named(n.full) || named(unlistName(n.full))), literals };
}
