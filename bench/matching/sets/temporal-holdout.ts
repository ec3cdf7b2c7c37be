/**
 * Set (e): the temporal hold-out. Entries in the 2024-05 SDN file that the 2023-05 file did not
 * have are names nobody tuning on older names has seen. Each is screened against the 2024-05 SDN
 * index as listed and in three seeded perturbations; recall is the share found (its own entry
 * among the matches at the threshold). Never used for tuning, in any part.
 */
import type { SubjectKind } from '../../../src/screening/match-types.ts';
import type { ListEntity } from '../../../src/screening/model.ts';
import { loadSdnMainFile } from '../list-loading.ts';
import type { Matcher } from '../matchers.ts';
import { commaInvert, dropMiddle, typo } from '../perturb.ts';
import { collect, type SetResult, Tally } from '../tally.ts';

const SET = 'e. temporal hold-out';
const VARIANTS: [string, (name: string) => string | undefined][] = [
  ['as listed', (name) => name],
  ['typo', typo],
  ['middle name dropped', dropMiddle],
  ['comma inversion', commaInvert],
];

export const kindOf = (entity: ListEntity): SubjectKind => (entity.type === 'person' ? 'person' : entity.type === 'organization' ? 'organization' : 'any');

export function runTemporalHoldout(dataDir: string, matchers: readonly Matcher[], threshold: number | undefined): SetResult {
  const current = loadSdnMainFile(dataDir, 'ofac_sdn_2024-05/sdn.csv');
  const before = new Set(loadSdnMainFile(dataDir, 'ofac_sdn_2024-05/history/2023-05-02/sdn.csv').map((e) => e.entryId));
  const added = current.filter((e) => !before.has(e.entryId));
  const tallies: Tally[] = [];
  for (const matcher of matchers) {
    const index = matcher.buildScreeningIndex(current);
    const cutoff = threshold ?? matcher.defaultThreshold;
    for (const [variant, perturb] of VARIANTS) {
      const tally = new Tally(SET, variant, matcher.label, cutoff);
      for (const entity of added) {
        const listed = entity.names[0]?.full as string;
        const query = perturb(listed);
        if (query === undefined) continue;
        const matches = index.screen({ name: query, kind: kindOf(entity) }, { threshold: cutoff });
        const found = matches.find((m) => m.entity.entryId === entity.entryId);
        tally.add(entity.entryId, true, found !== undefined, found?.score ?? 0, query === listed ? listed : `${query}  (listed: ${listed})`);
      }
      tallies.push(tally);
    }
  }
  // No worst misses printed: a hold-out whose failures are read stops being one.
  const notes = [
    `${SET}: ${added.length} SDN entries added between 2023-05-02 and 2024-05-03, screened against the 2024-05 SDN (${current.length} entries); not tuned on (one exception, see the note above the table)`,
  ];
  return collect(tallies, notes, []);
}
