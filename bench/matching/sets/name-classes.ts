/**
 * Set (f): the name classes of issue 30, built from the real lists. Each variant is one row:
 * listed entities queried the way people write them (a date of birth a year off, an everyday
 * name for the legal one, a legal form moved or translated, a bracket's part alone, an honorific,
 * digits for letters, an extra given name, a Korean name in Hangul or Hanja), screened against
 * every list; recall is the share whose own entity is among the matches at the threshold. Names
 * equal to the query are held out of that row's index (matching.md §7), so a variant the list
 * already carries does not count as found. Clean rows (ordinary people with the same treatment,
 * organizations' common words alone) report alerts per 1,000.
 *
 * Split by entity (clean rows: by subject) like every set; entities a unit test names are left
 * out (unit-test-names.ts). A variant with more rows than CAP is cut to CAP by a stable hash, so
 * the engine's run takes about a minute; the baseline, ten times slower per query, gets the first
 * BASELINE_CAP of those rows. The generators are in ../name-classes/.
 */
import type { ListEntity } from '../../../src/screening/model.ts';
import { loadAllLists } from '../list-loading.ts';
import { engine, type Matcher, type ScreeningIndexLike } from '../matchers.ts';
import { bracketVariants } from '../name-classes/brackets.ts';
import { type ClassCase, type ClassVariant, capped } from '../name-classes/class-case.ts';
import { commonWordsOnly, ordinaryNamesWithClasses } from '../name-classes/clean-queries.ts';
import { dateOfBirthVariants } from '../name-classes/dates-of-birth.ts';
import { digitsForLettersVariants } from '../name-classes/digits-for-letters.ts';
import { everydayNameVariants } from '../name-classes/everyday-names.ts';
import { koreanScriptVariants } from '../name-classes/korean-scripts.ts';
import { legalFormVariants } from '../name-classes/legal-forms.ts';
import { buildOrgVocabulary } from '../name-classes/org-vocabulary.ts';
import { personAdditionVariants } from '../name-classes/person-additions.ts';
import { readUnitTestNames } from '../name-classes/unit-test-names.ts';
import { collect, type SetResult, Tally } from '../tally.ts';
import { readNegatives } from './negatives.ts';

const SET = 'f. name classes';
const CAP = 2500;
const CLEAN_CAP = 10000;
const COMMON_WORD_QUERIES = 2000;
const BASELINE_CAP = 500;
/**
 * How far down the matches a row's own entity is looked for: an alert on ten namesakes is still
 * an alert, so recall does not depend on the page size a screening shows.
 */
const DEPTH = 100;
/** A missed entity's own score is looked for down to here, for the failure list. */
const MISS_FLOOR = 0.4;

const sameEntity = (a: ListEntity, b: ListEntity) => a.list === b.list && a.entryId === b.entryId;

/** The index for one variant: every list, less the names its rows hold out (the base index when none). */
function indexFor(matcher: Matcher, entities: readonly ListEntity[], base: ScreeningIndexLike, cases: readonly ClassCase[]) {
  const holdOuts = new Map<ListEntity, NonNullable<ClassCase['holdOut']>>();
  for (const c of cases) if (c.entity && c.holdOut && c.entity.names.some(c.holdOut)) holdOuts.set(c.entity, c.holdOut);
  if (holdOuts.size === 0) return { index: base, emptied: new Set<ListEntity>() };
  const emptied = new Set<ListEntity>();
  const kept = entities.flatMap((entity) => {
    const holdOut = holdOuts.get(entity);
    if (!holdOut) return [entity];
    const names = entity.names.filter((n) => !holdOut(n));
    if (names.length === 0) emptied.add(entity);
    return names.length === 0 ? [] : [{ ...entity, names }];
  });
  return { index: matcher.buildScreeningIndex(kept), emptied };
}

export async function runNameClasses(dataDir: string, matchers: readonly Matcher[], threshold: number | undefined): Promise<SetResult> {
  const { lists } = await loadAllLists(dataDir);
  const entities = lists.flatMap((l) => l.entities);
  const unitTestNames = readUnitTestNames();
  const eligible = entities.filter((e) => !unitTestNames.has(e));
  const persons = eligible.filter((e) => e.type === 'person');
  const organizations = eligible.filter((e) => e.type === 'organization');
  const vocabulary = buildOrgVocabulary(dataDir, entities);
  const variants: ClassVariant[] = [
    ...dateOfBirthVariants(persons.filter((e) => e.list === 'OFAC_SDN')),
    ...everydayNameVariants(vocabulary, organizations),
    ...legalFormVariants(vocabulary, organizations),
    ...bracketVariants(vocabulary, organizations),
    ...personAdditionVariants(persons),
    ...digitsForLettersVariants(persons, organizations),
    ...koreanScriptVariants(persons),
  ].map((v) => ({ ...v, cases: capped(v.cases, CAP) }));
  const clean: ClassVariant[] = [
    ...ordinaryNamesWithClasses(readNegatives(dataDir)).map((v) => ({ ...v, cases: capped(v.cases, CLEAN_CAP) })),
    commonWordsOnly(vocabulary, entities, COMMON_WORD_QUERIES),
  ];

  const tallies: Tally[] = [];
  const notes = [
    `${SET}: ${entities.length} entries of every list; ${entities.length - eligible.length} left out because a unit test names them (${unitTestNames.literals} string literals under test/); at most ${CAP} rows per variant (${CLEAN_CAP} per clean-name variant; ${BASELINE_CAP} for the baseline), chosen by a stable hash`,
  ];
  for (const matcher of matchers) {
    const cutoff = threshold ?? matcher.defaultThreshold;
    const base = matcher.buildScreeningIndex(entities);
    for (const variant of [...variants, ...clean]) {
      const started = performance.now();
      const cases = matcher === engine ? variant.cases : capped(variant.cases, BASELINE_CAP);
      const { index, emptied } = indexFor(matcher, entities, base, cases);
      const tally = new Tally(SET, variant.name, matcher.label, cutoff);
      for (const c of cases) {
        if (c.entity && emptied.has(c.entity)) continue;
        if (c.entity) {
          const entity = c.entity;
          const found = index.screen(c.query, { threshold: cutoff, limit: DEPTH }).find((m) => sameEntity(m.entity, entity));
          const score = found?.score ?? index.screen(c.query, { threshold: MISS_FLOOR, limit: DEPTH }).find((m) => sameEntity(m.entity, entity))?.score ?? 0;
          tally.add(c.key, true, found !== undefined, score, c.label);
        } else {
          const [top] = index.screen(c.query, { threshold: cutoff, limit: 1 });
          tally.add(
            c.key,
            false,
            top !== undefined,
            top?.score ?? 0,
            top ? `${c.label} → ${top.matchedName.full} (${top.entity.list} ${top.entity.entryId})` : c.label,
          );
        }
      }
      tallies.push(tally);
      if (emptied.size > 0) notes.push(`  ${variant.name}: ${emptied.size} rows dropped, every name of their entity being the query`);
      process.stderr.write(`  ${matcher.label}, ${variant.name}: ${cases.length} rows in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    }
  }
  return collect(tallies, notes);
}
