/**
 * Set (f)'s clean queries: what the name classes must not turn into alerts.
 *
 * - ordinary names with classes applied: set (c)'s synthetic people (yente's negatives; those in
 *   Latin script, whom these perturbations fit) with an honorific or suffix added, digits typed
 *   for letters, or one given name of another of them added, screened by name alone;
 * - common words only: organization queries of one or two of the words most frequent in the
 *   lists' organization names that rigour counts as common vocabulary ("International Trading"),
 *   half of them with a legal form after them; a query whose words are a listed name's (designations
 *   aside, each word equal, one edit apart or of the same stem: System for Systems, Industries for
 *   Industrial, a list's own typo) is left out, since it names that organization.
 */
import type { ListEntity } from '../../../src/screening/model.ts';
import { editDistance } from '../../../src/screening/normalize/edit-distance.ts';
import { pick, seededRandom } from '../perturb.ts';
import type { NegativeSubject } from '../sets/negatives.ts';
import { stableHash } from '../split.ts';
import type { ClassCase, ClassVariant } from './class-case.ts';
import { digitsForLetters } from './digits-for-letters.ts';
import { coreKey, type OrgVocabulary } from './org-vocabulary.ts';
import { isLendableName, type LentName, withExtraGivenName, withSuffixOrHonorific } from './person-additions.ts';
import { isLatinName, nameKey, wordsOf } from './words.ts';

const COMMON_WORDS = 100;
const LEGAL_FORMS = ['Company', 'LLC', 'Ltd', 'Group', 'Co.', 'JSC', 'Corporation', 'Limited', 'OOO', 'GmbH'];

export function ordinaryNamesWithClasses(subjects: readonly NegativeSubject[]): ClassVariant[] {
  const latin = subjects.filter((s) => isLatinName(s.name) && s.name.includes(' '));
  const pool: LentName[] = latin.map((s) => ({ owner: s.key, name: s.name.split(' ')[0] as string })).filter((l) => isLendableName(l.name));
  const variants: [string, (s: NegativeSubject) => string | undefined][] = [
    ['ordinary names with classes applied: suffix or honorific', (s) => withSuffixOrHonorific(s.name)],
    ['ordinary names with classes applied: digits for letters', (s) => digitsForLetters(s.name)],
    ['ordinary names with classes applied: extra given name', (s) => withExtraGivenName(s.name, s.key, pool)],
  ];
  return variants.map(([name, perturb]) => ({
    name,
    cases: latin.flatMap((s): ClassCase[] => {
      const query = perturb(s);
      return query ? [{ key: s.key, query: { name: query, kind: 'person' }, label: `${query}  (${s.name})` }] : [];
    }),
  }));
}

const commonPrefix = (a: string, b: string) => {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return i;
};
/** One edit apart, or one stem: a shared beginning of 6+ letters, 80 % of the shorter word. */
const near = (a: string, b: string) => editDistance(a, b, 1) <= 1 || commonPrefix(a, b) >= Math.max(6, 0.8 * Math.min(a.length, b.length));
/** The same words up to one edit each, in either order (cores of one or two words). */
const sameCore = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length &&
  (a.every((t, i) => near(t, b[i] as string)) || (a.length === 2 && near(a[0] as string, b[1] as string) && near(a[1] as string, b[0] as string)));

export function commonWordsOnly(vocabulary: OrgVocabulary, entities: readonly ListEntity[], count: number): ClassVariant {
  const words = vocabulary.commonWords.slice(0, COMMON_WORDS);
  const coreOf = (name: string) => coreKey(vocabulary, wordsOf(name)).split(' ').filter(Boolean);
  const listedCores = entities
    .filter((e) => e.type === 'organization')
    .flatMap((e) => e.names.map((n) => coreOf(n.full)))
    .filter((core) => core.length >= 1 && core.length <= 2);
  const seen = new Set<string>();
  const cases: ClassCase[] = [];
  for (let i = 0; cases.length < count && i < count * 10; i++) {
    const random = seededRandom(stableHash(`common-words:${i}`));
    const chosen = new Set([pick(random, words)]);
    if (random() < 0.75) chosen.add(pick(random, words));
    const title = [...chosen].map((w) => w[0]?.toUpperCase() + w.slice(1)).join(' ');
    const query = random() < 0.5 ? `${title} ${pick(random, LEGAL_FORMS)}` : title;
    const core = coreOf(query);
    if (seen.has(nameKey(query)) || listedCores.some((listed) => sameCore(core, listed))) continue;
    seen.add(nameKey(query));
    cases.push({ key: `common-words:${query}`, query: { name: query, kind: 'organization' }, label: query });
  }
  return { name: 'common words only (organizations)', cases };
}
