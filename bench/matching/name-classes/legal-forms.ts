/**
 * Set (f), legal forms written another way than the list writes them:
 *
 * - moved: the legal-form phrase at the end of the name put at its start, or the one at the
 *   start put at the end (LLC X ↔ X LLC);
 * - translated: the phrase swapped for its equivalent in another language or spelled out
 *   (LLC ↔ OOO ↔ Limited Liability Company ↔ Obshchestvo s Ogranichennoy Otvetstvennostyu …);
 * - in the middle: the phrase taken from the start or end and put between two of the other words.
 *
 * The phrases are found with the set's designation table (rigour's org types and the state
 * designations, see org-vocabulary.ts); translations come from the table below.
 */
import type { ListEntity } from '../../../src/screening/model.ts';
import { pick, randomFor } from '../perturb.ts';
import { type ClassVariant, findCase } from './class-case.ts';
import { hasDistinctive, type OrgVocabulary } from './org-vocabulary.ts';
import { CONNECTIVES, isPlainName, joinWords, type Word, wordsOf } from './words.ts';

/** Equivalent legal forms: English abbreviation, the source language's, English, transliterated. */
const EQUIVALENTS = [
  ['LLC', 'OOO', 'Limited Liability Company', 'Obshchestvo s Ogranichennoy Otvetstvennostyu'],
  ['JSC', 'AO', 'Joint Stock Company', 'Aktsionernoe Obshchestvo'],
  ['OJSC', 'OAO', 'Open Joint Stock Company', 'Otkrytoe Aktsionernoe Obshchestvo'],
  ['CJSC', 'ZAO', 'Closed Joint Stock Company', 'Zakrytoe Aktsionernoe Obshchestvo'],
  ['PJSC', 'PAO', 'Public Joint Stock Company', 'Publichnoe Aktsionernoe Obshchestvo'],
  ['FSUE', 'FGUP', 'Federal State Unitary Enterprise', 'Federalnoe Gosudarstvennoe Unitarnoe Predpriyatie'],
  ['SUE', 'GUP', 'State Unitary Enterprise', 'Gosudarstvennoe Unitarnoe Predpriyatie'],
  ['GmbH', 'Gesellschaft mit beschränkter Haftung', 'LLC'],
  ['S.A.', 'Sociedad Anónima', 'Société Anonyme'],
  ['PLC', 'Public Limited Company'],
];
/** Other spellings of the forms above that the lists use, by their group's first form: recognized, never written. */
const ALSO_SPELLED: Record<string, string[]> = {
  LLC: ['Obshchestvo s Ogranichennoi Otvetstvennostyu', 'Obshchestvo s Ogranichennoi Otvetstvennostiu', 'Obshchestvo s Ogranichennoy Otvetstvennostiu'],
  JSC: ['Aktsionernoye Obshchestvo', 'Akcionernoe Obshchestvo'],
  OJSC: ['Otkrytoye Aktsionernoye Obshchestvo'],
  CJSC: ['Zakrytoye Aktsionernoye Obshchestvo'],
  PJSC: ['Publichnoye Aktsionernoye Obshchestvo'],
};

type Form = { tokens: string[]; group: number };
const formOf = (spelling: string, group: number): Form => ({ tokens: wordsOf(spelling).map((w) => w.token), group });
/** Longest first; between equally long ones, the group listed first (LLC is the LLC group's before GmbH's). */
const FORMS: Form[] = EQUIVALENTS.flatMap((group, g) => [...group, ...(ALSO_SPELLED[group[0] as string] ?? [])].map((spelling) => formOf(spelling, g))).sort(
  (a, b) => b.tokens.length - a.tokens.length || a.group - b.group,
);

const formAt = (words: readonly Word[], at: number): Form | undefined => FORMS.find((f) => f.tokens.every((t, i) => words[at + i]?.token === t));

/** The words a run of designation phrases covers at the start of the name, and at its end. */
function designationEnds(vocabulary: OrgVocabulary, words: readonly Word[]): { leading: number; trailing: number } {
  let leading = 0;
  for (let covered = vocabulary.designationAt(words, 0); covered > 0; covered = vocabulary.designationAt(words, leading)) leading += covered;
  let trailing = 0;
  for (let end = words.length; end > leading; ) {
    // The longest phrase that ends exactly at `end`.
    let found = 0;
    for (let start = leading; start < end && found === 0; start++) if (vocabulary.designationAt(words, start) === end - start) found = end - start;
    if (found === 0) break;
    trailing += found;
    end -= found;
  }
  return { leading, trailing };
}

/** The legal form moved from the end to the start (or, when it leads, from the start to the end). */
export function legalFormMoved(vocabulary: OrgVocabulary, name: string): string | undefined {
  const words = wordsOf(name);
  const { leading, trailing } = designationEnds(vocabulary, words);
  const rest = words.slice(leading, words.length - trailing);
  if (!hasDistinctive(vocabulary, rest)) return undefined;
  if (trailing > 0) return joinWords([...words.slice(words.length - trailing), ...words.slice(0, words.length - trailing)]);
  if (leading > 0) return joinWords([...rest, ...words.slice(0, leading)]);
  return undefined;
}

/** The first translatable legal form swapped for another of its equivalents, where it stands. */
export function legalFormTranslated(name: string): string | undefined {
  const words = wordsOf(name);
  for (let at = 0; at < words.length; at++) {
    const form = formAt(words, at);
    if (!form) continue;
    const others = (EQUIVALENTS[form.group] as string[]).filter(
      (spelling) =>
        wordsOf(spelling)
          .map((w) => w.token)
          .join(' ') !== form.tokens.join(' '),
    );
    const replacement = pick(randomFor(name, 'legal-form'), others);
    return joinWords([...words.slice(0, at), ...wordsOf(replacement), ...words.slice(at + form.tokens.length)]);
  }
  return undefined;
}

/** The legal form at the start or end put between two words of the name that are not connectives. */
export function legalFormInTheMiddle(vocabulary: OrgVocabulary, name: string): string | undefined {
  const words = wordsOf(name);
  const { leading, trailing } = designationEnds(vocabulary, words);
  const form = trailing > 0 ? words.slice(words.length - trailing) : words.slice(0, leading);
  const rest = words.slice(leading, words.length - trailing);
  const gaps = rest.map((_, i) => i).filter((i) => i > 0 && !CONNECTIVES.has((rest[i - 1] as Word).token) && !CONNECTIVES.has((rest[i] as Word).token));
  if (form.length === 0 || gaps.length === 0 || !hasDistinctive(vocabulary, rest)) return undefined;
  const at = pick(randomFor(name, 'legal-form-middle'), gaps);
  return joinWords([...rest.slice(0, at), ...form, ...rest.slice(at)]);
}

export function legalFormVariants(vocabulary: OrgVocabulary, organizations: readonly ListEntity[]): ClassVariant[] {
  const variants = [
    { name: 'legal form moved', make: (name: string) => legalFormMoved(vocabulary, name) },
    { name: 'legal form translated', make: legalFormTranslated },
    { name: 'legal form in the middle', make: (name: string) => legalFormInTheMiddle(vocabulary, name) },
  ];
  return variants.map(({ name, make }) => ({
    name,
    cases: organizations.flatMap((entity) => {
      const primary = entity.names.find((n) => n.kind === 'primary')?.full;
      const query = primary && isPlainName(primary) ? make(primary) : undefined;
      return query ? [findCase(entity, { name: query, kind: 'organization' }, `listed: ${primary}`)] : [];
    }),
  }));
}
