/**
 * Set (c): 100,000 synthetic people who are on no list (yente's qarin fixtures, 28,635 of them
 * in non-Latin scripts), screened against every list. Any match at the threshold is an alert
 * that a reviewer would have to clear: reported per 1,000 subjects, with the date of birth and
 * nationality passed as qualifiers and with the name alone.
 */
import { countryCode } from '../../../src/screening/countries.ts';
import type { ScreeningMatch, SubjectQuery } from '../../../src/screening/match-types.ts';
import type { ListEntity } from '../../../src/screening/model.ts';
import { parsePartialDate, readCsvRecords } from '../eval-data.ts';
import type { Matcher } from '../matchers.ts';
import { collect, type SetResult, Tally } from '../tally.ts';

const SET = 'c. synthetic negatives';
const FILES = ['negatives_global.csv', 'negatives_us.csv'];

export type NegativeSubject = { key: string; name: string; qualified: SubjectQuery };

export function readNegatives(dataDir: string): NegativeSubject[] {
  return FILES.flatMap((file) =>
    readCsvRecords(dataDir, `eval/yente_candidate_generation_benchmark/${file}`).map((r, row) => {
      const name = r.full_name as string;
      const country = r.nationality ? countryCode(r.nationality) : undefined;
      const dateOfBirth = parsePartialDate(r.date_of_birth);
      const qualified: SubjectQuery = { name, kind: 'person', ...(country && { countries: [country] }), ...(dateOfBirth && { dateOfBirth }) };
      return { key: `${file}:${row}`, name, qualified };
    }),
  );
}

/**
 * Two clearing rules an organization may write (adjudication rules' `clearing_rules`): one clears a
 * match whose date of birth contradicts the entry's, one a match whose country does. By default
 * nothing is cleared on these facts, and a name at or above the threshold is held there
 * (src/screening/match/qualifiers.ts); these rows show what opting in buys. A match an identifier
 * corroborates is never cleared by a rule; the negatives carry none.
 */
const CLEARING_RULES_IN_WORDS = 'date of birth contradicts; country contradicts';
const clearedByRules = (match: ScreeningMatch) =>
  match.explanation.qualifiers.some((q) => (q.factor === 'date_of_birth' || q.factor === 'country') && q.effect === 'contradicts');

export function runNegatives(dataDir: string, entities: readonly ListEntity[], matchers: readonly Matcher[], threshold: number | undefined): SetResult {
  const subjects = readNegatives(dataDir);
  const tallies: Tally[] = [];
  for (const matcher of matchers) {
    const index = matcher.buildScreeningIndex(entities);
    const cutoff = threshold ?? matcher.defaultThreshold;
    for (const qualified of matcher.usesQualifiers ? [true, false] : [false]) {
      const variant = qualified ? 'with DOB and nationality' : 'name only';
      const tally = new Tally(SET, variant, matcher.label, cutoff);
      // The same screenings as an organization that opted into clearing rules would see them.
      const cleared = new Tally(SET, `${variant}, clearing rules: ${CLEARING_RULES_IN_WORDS}`, matcher.label, cutoff);
      const started = performance.now();
      for (const [i, subject] of subjects.entries()) {
        const query = qualified ? subject.qualified : { name: subject.name, kind: 'person' as const };
        const matches = index.screen(query, { threshold: cutoff, limit: 10 });
        const [top] = matches;
        const label = top ? `${subject.name} → ${top.matchedName.full} (${top.entity.list} ${top.entity.entryId})` : subject.name;
        tally.add(subject.key, false, top !== undefined, top?.score ?? 0, label);
        if (qualified) {
          const [left] = matches.filter((m) => !clearedByRules(m));
          cleared.add(subject.key, false, left !== undefined, left?.score ?? 0, left ? `${subject.name} → ${left.matchedName.full}` : subject.name);
        }
        if ((i + 1) % 20000 === 0)
          process.stderr.write(`  ${matcher.label}, ${variant}: ${i + 1} subjects in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
      }
      tallies.push(tally);
      if (qualified) tallies.push(cleared);
    }
  }
  const unmapped = subjects.filter((s) => !s.qualified.countries).length;
  return collect(tallies, [
    `${SET}: ${subjects.length} subjects against ${entities.length} list entries; ${unmapped} nationalities did not map to a country code and were left out`,
  ]);
}
