/**
 * A match's explanation in the words an adjudicator uses: which list name matched and of what
 * kind, each word pair and how it matched, and what each qualifier did to the score.
 */
import type { MatchExplanation, QualifierExplanation, TokenExplanation } from '../match-types.ts';
import type { ListedName } from '../model.ts';
import type { NameScore } from './name-score.ts';

const KIND_WORDS: Record<ListedName['kind'], string> = {
  primary: 'the listed name',
  strong_alias: 'an a.k.a.',
  weak_alias: 'a weak a.k.a.',
  former_name: 'a former name',
  original_script: 'the name in its original script',
};

const HOW_WORDS: Record<TokenExplanation['how'], string> = {
  exact: 'exactly',
  phonetic: 'by sound',
  nickname: 'as a form of the same given name',
  word_form: 'as a form of the same trade word',
  transliterated: 'across scripts',
  typo: 'within a typo',
  initial: 'as an initial',
  merged: 'with spacing merged',
  legal_form: 'as a legal form',
  unmatched_query: '',
  unmatched_list: '',
};

/** `notes`: how the names were read before they were compared, in words (a bracketed part taken alone). */
export function explain(
  queryName: string,
  listedName: ListedName,
  nameScore: number,
  name: NameScore,
  qualifiers: QualifierExplanation[],
  notes: readonly string[] = [],
): MatchExplanation {
  const { tokens, numberFactor, everydayName } = name;
  const paired = tokens.filter((t) => t.query !== undefined && t.list !== undefined);
  const extraQuery = tokens.filter((t) => t.how === 'unmatched_query').map((t) => t.query);
  const extraList = tokens.filter((t) => t.how === 'unmatched_list').map((t) => t.list);
  const parts = [
    // A name scoring 0 is shown only beside an identifier that found its entry.
    `"${queryName}" ${nameScore > 0 ? 'matched' : 'was compared with'} ${KIND_WORDS[listedName.kind]} "${listedName.full}" (name score ${nameScore.toFixed(2)})`,
    paired.length > 0 ? `words: ${paired.map(pairInWords).join(', ')}` : '',
    extraQuery.length > 0 ? `not on the list name: ${extraQuery.join(', ')}` : '',
    extraList.length > 0 ? `only on the list name: ${extraList.join(', ')}` : '',
    numberFactor < 1 ? `the numbers differ (name score ×${numberFactor.toFixed(2)})` : '',
    everydayName
      ? 'every word given is on the listed name and one is found on only a handful of list names: read as the everyday name of the listed party (a strong partial match)'
      : '',
    ...notes,
    ...qualifiers.filter((q) => q.effect !== 'unknown').map((q) => `${q.detail} (${q.contribution >= 0 ? '+' : ''}${q.contribution.toFixed(2)})`),
  ];
  return {
    queryName,
    listName: listedName.full,
    nameKind: listedName.kind,
    nameScore: Math.round(nameScore * 1000) / 1000,
    tokens,
    qualifiers,
    summary: parts.filter(Boolean).join('; '),
  };
}

/** An exact pair shows its word once, unless the two were written differently (Forty-Four and 44, read as one number). */
function pairInWords(t: TokenExplanation): string {
  if (t.how !== 'exact') return `${t.query}≈${t.list} ${HOW_WORDS[t.how]}`;
  return t.query === t.list ? (t.query as string) : `${t.query}≈${t.list} exactly, once written out`;
}
