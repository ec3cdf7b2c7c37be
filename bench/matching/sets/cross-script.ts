/**
 * Set (d): watchman's 22 cross-script pairs (Arabic, Cyrillic, Han, Hangul, kana, Greek, Hebrew,
 * Thai → Latin). The expected Latin names form a small index; a pair is a hit when its expected
 * entity is the best match at the threshold. watchman itself needs an external embeddings
 * service for these; its own minimum scores are in the file.
 */
import { readCsvRows } from '../eval-data.ts';
import { entityNamed, type Matcher } from '../matchers.ts';
import { collect, type SetResult, Tally } from '../tally.ts';

const SET = 'd. cross-script pairs';

export function runCrossScript(dataDir: string, matchers: readonly Matcher[], threshold: number | undefined): SetResult {
  // Columns: Query, Expected Match, Min Score, Description (the header is a comment line).
  const pairs = readCsvRows(dataDir, 'eval/watchman_cross_script_pairs.csv').map(([query, expected]: string[]) => ({
    query: query as string,
    expected: expected as string,
  }));
  const entities = [...new Set(pairs.map((p) => p.expected))].map((name) => entityNamed(name, 'person'));
  const tallies: Tally[] = [];
  for (const matcher of matchers) {
    const index = matcher.buildScreeningIndex(entities);
    const cutoff = threshold ?? matcher.defaultThreshold;
    const tally = new Tally(SET, 'expected entity first', matcher.label, cutoff);
    for (const { query, expected } of pairs) {
      const matches = index.screen({ name: query, kind: 'person' }, { threshold: 0, limit: entities.length });
      const top = matches[0];
      const hit = top !== undefined && top.entity.entryId === expected && top.score >= cutoff;
      const own = matches.find((m) => m.entity.entryId === expected);
      tally.add(
        expected,
        true,
        hit,
        own?.score ?? 0,
        `${query} → ${expected}${top && top.entity.entryId !== expected ? ` (best: ${top.entity.entryId})` : ''}`,
      );
    }
    tallies.push(tally);
  }
  return collect(tallies, [`${SET}: ${pairs.length} pairs, ${entities.length} expected names in the index`]);
}
