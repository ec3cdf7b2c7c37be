/**
 * What the organization classes of set (f) need to know about company names: which phrases are
 * legal forms or designations (rigour's org_types plus the designations of state bodies the
 * lists use), which words are common (rigour's organization vocabulary), and so which tokens
 * tell one organization from another ("distinctive": none of those, nor a connective, 3+ letters).
 * Built from the tables and the lists themselves; no organization's name is written here.
 */
import type { ListEntity } from '../../../src/screening/model.ts';
import { readOrgTypeSpellings, readOrgVocabulary } from './rigour-tables.ts';
import { CONNECTIVES, DANGLING, isLatinName, tokensOf, type Word } from './words.ts';

/** Designations the lists use that rigour's org types leave out (it lists legal forms). */
// biome-ignore format: a word table, packed by hand
const GENERIC_DESIGNATIONS = [
  'company', 'co', 'corporation', 'corp', 'incorporated', 'inc', 'limited', 'ltd', 'group', 'holding', 'holdings',
  'grupo', 'groupe', 'gruppe', 'grupp', 'gruppa', 'kompaniya', 'kompania', 'compania', 'companhia', 'compagnie', 'korporatsiya',
  'state corporation', 'state company', 'state enterprise', 'state concern', 'federal state unitary enterprise', 'state unitary enterprise',
  'federal state budgetary institution', 'federal state institution', 'federal state budgetary enterprise', 'fsue', 'fgup', 'fgbu', 'gup',
  'federalnoe gosudarstvennoe unitarnoe predpriyatie', 'gosudarstvennoe unitarnoe predpriyatie',
  'joint stock company', 'joint-stock company', 'open joint stock company', 'closed joint stock company', 'public joint stock company',
  'private joint stock company', 'joint stock commercial bank', 'limited liability company', 'limited liability partnership',
  'obshchestvo s ogranichennoy otvetstvennostyu', 'obshchestvo s ogranichennoi otvetstvennostyu', 'obshchestvo s ogranichennoi otvetstvennostiu',
  'aktsionernoe obshchestvo', 'otkrytoe aktsionernoe obshchestvo', 'zakrytoe aktsionernoe obshchestvo', 'publichnoe aktsionernoe obshchestvo',
  'ooo', 'oao', 'zao', 'pao', 'ao', 'pjsc', 'ojsc', 'cjsc', 'jsc', 'llc', 'llp', 'gmbh', 'plc', 'pte', 'pvt', 'pty', 'private limited',
  'fze', 'fzco', 'fzc', 'fz llc', 'sarl', 'srl', 'spa', 'sa', 'ag', 'nv', 'bv', 'est', 'establishment', 'sal', 'saog', 'saoc', 'wll', 'spc',
];
/** One- and two-letter forms are kept only when they are unambiguous (AS and AD are also Arabic articles). */
const SHORT_FORMS = new Set(['ao', 'co', 'sa', 'ag', 'nv', 'bv', 'kg', 'oy', 'ab']);

export type OrgVocabulary = {
  /** Designation phrases as folded tokens, longest first. */
  readonly designations: readonly string[][];
  /** Rigour's descriptive words, the most frequent on the lists' organizations first. */
  readonly commonWords: readonly string[];
  isDistinctive(token: string): boolean;
  /** How many words at `at` a designation phrase covers (0: none). */
  designationAt(words: readonly Word[], at: number): number;
};

export function buildOrgVocabulary(dataDir: string, entities: readonly ListEntity[]): OrgVocabulary {
  const phrases = new Map<string, string[]>();
  for (const spelling of [...readOrgTypeSpellings(dataDir), ...GENERIC_DESIGNATIONS]) {
    if (!isLatinName(spelling)) continue;
    const tokens = tokensOf(spelling);
    if (tokens.length === 0 || (tokens.length === 1 && (tokens[0] as string).length <= 2 && !SHORT_FORMS.has(tokens[0] as string))) continue;
    phrases.set(tokens.join(' '), tokens);
  }
  const designations = [...phrases.values()].sort((a, b) => b.length - a.length);
  const byFirst = new Map<string, string[][]>();
  for (const phrase of designations) byFirst.set(phrase[0] as string, [...(byFirst.get(phrase[0] as string) ?? []), phrase]);
  const designationTokens = new Set(designations.flat());

  const designationAt = (words: readonly Word[], at: number): number => {
    for (const phrase of byFirst.get(words[at]?.token ?? '') ?? []) {
      if (phrase.every((token, i) => words[at + i]?.token === token)) return phrase.length;
    }
    return 0;
  };

  // A word that alone is the name of a listed organization is that organization's name, not a common word.
  const orgNames = entities.filter((e) => e.type === 'organization').map((e) => e.names.map((n) => tokensOf(n.full)));
  const namesAlone = new Set(orgNames.flatMap((names) => names.filter((t) => t.length === 1).map((t) => t[0] as string)));
  const vocabulary = new Set(
    readOrgVocabulary(dataDir)
      .filter(isLatinName)
      .map(tokensOf)
      .filter((t) => t.length === 1 && (t[0] as string).length >= 3)
      .map((t) => t[0] as string)
      .filter((t) => !designationTokens.has(t) && !CONNECTIVES.has(t) && !namesAlone.has(t)),
  );
  const frequency = new Map<string, number>();
  for (const names of orgNames) for (const token of new Set(names.flat())) if (vocabulary.has(token)) frequency.set(token, (frequency.get(token) ?? 0) + 1);
  const commonWords = [...frequency].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([token]) => token);

  return {
    designations,
    commonWords,
    isDistinctive: (token) => token.length >= 3 && /\p{L}/u.test(token) && !designationTokens.has(token) && !CONNECTIVES.has(token) && !vocabulary.has(token),
    designationAt,
  };
}

/** The words with every designation phrase taken out, and connectives left dangling at either end (of, and …; not al or de, which begin names). */
export function withoutDesignations(vocabulary: OrgVocabulary, words: readonly Word[]): Word[] {
  const kept: Word[] = [];
  for (let i = 0; i < words.length; ) {
    const covered = vocabulary.designationAt(words, i);
    if (covered > 0) i += covered;
    else kept.push(words[i++] as Word);
  }
  while (kept.length > 0 && DANGLING.has((kept[0] as Word).token)) kept.shift();
  while (kept.length > 0 && DANGLING.has((kept.at(-1) as Word).token)) kept.pop();
  return kept;
}

/** The distinctive tokens of a name, sorted: two names with the same core differ only in designations and common words' order. */
export function coreKey(vocabulary: OrgVocabulary, words: readonly Word[]): string {
  return [
    ...new Set(
      withoutDesignations(vocabulary, words)
        .map((w) => w.token)
        .filter((t) => !CONNECTIVES.has(t)),
    ),
  ]
    .sort()
    .join(' ');
}

export const hasDistinctive = (vocabulary: OrgVocabulary, words: readonly Word[]): boolean => words.some((w) => vocabulary.isDistinctive(w.token));
