/**
 * Set (b): yente's 683 UN-listed people, as listed ("untreated") and with 170 names perturbed
 * ("treated": comma inversions, typos, doubled letters, transpositions), screened against the UN
 * list with their date of birth and nationality. The rows carry no UN reference number, so each
 * is linked to its UN entry here (see linkToUnEntries); rows that cannot be linked are reported,
 * not guessed. Recall: the linked entry is among the matches at the threshold.
 */
import type { SubjectQuery } from '../../../src/screening/match-types.ts';
import type { ListEntity } from '../../../src/screening/model.ts';
import { parsePartialDate, readCsvRecords } from '../eval-data.ts';
import type { Matcher } from '../matchers.ts';
import { collect, type SetResult, Tally } from '../tally.ts';
import { linkToUnEntries, type PositiveRow } from './un-linking.ts';

const SET = 'b. UN positives';
const DIR = 'eval/yente_candidate_generation_benchmark';

function readPositives(dataDir: string, file: string): PositiveRow[] {
  return readCsvRecords(dataDir, `${DIR}/${file}`).map((r) => {
    const dateOfBirth = parsePartialDate(r.date_of_birth);
    return { name: r.full_name as string, nationality: r.nationality?.toUpperCase() || undefined, ...(dateOfBirth && { dateOfBirth }) };
  });
}

export function runUnPositives(dataDir: string, un: readonly ListEntity[] | undefined, matchers: readonly Matcher[], threshold: number | undefined): SetResult {
  if (!un) return { outcomes: [], worst: [], notes: [`${SET}: skipped: readListSources cannot read the UN XML yet`] };
  const untreated = readPositives(dataDir, 'positives_un_untreated.csv');
  const treated = readPositives(dataDir, 'positives_un_treated.csv');
  if (treated.length !== untreated.length) throw new Error(`${DIR}: the treated and untreated files should have the same rows`);
  const { links, unlinked } = linkToUnEntries(untreated, un);
  const variants: [string, PositiveRow[], (i: number) => boolean][] = [
    ['untreated', untreated, () => true],
    ['treated (all rows)', treated, () => true],
    ['treated (perturbed rows only)', treated, (i) => treated[i]?.name !== untreated[i]?.name],
  ];
  const tallies: Tally[] = [];
  for (const matcher of matchers) {
    const index = matcher.buildScreeningIndex(un);
    const cutoff = threshold ?? matcher.defaultThreshold;
    for (const [variant, rows, include] of variants) {
      const tally = new Tally(SET, variant, matcher.label, cutoff);
      rows.forEach((row, i) => {
        const entryId = links[i];
        if (entryId === undefined || !include(i)) return;
        const query: SubjectQuery = {
          name: row.name,
          kind: 'person',
          ...(row.nationality && { countries: [row.nationality] }),
          ...(row.dateOfBirth && { dateOfBirth: row.dateOfBirth }),
        };
        const found = index.screen(query, { threshold: cutoff }).find((m) => m.entity.entryId === entryId);
        tally.add(`UN:${entryId}`, true, found !== undefined, found?.score ?? 0, `${row.name} (UN ${entryId})`);
      });
      tallies.push(tally);
    }
  }
  const linked = links.filter((l) => l !== undefined).length;
  const notes = [`${SET}: ${linked} of ${untreated.length} rows linked to a UN entry (${un.length} UN entries); ${unlinked.length} not linked`];
  for (const row of unlinked) notes.push(`  not linked: ${row.name} — ${row.reason}`);
  return collect(tallies, notes);
}
