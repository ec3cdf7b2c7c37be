/**
 * Set (f), bracketed parts of organizations' names. The lists write "X (Y)": Y is an acronym, a
 * short name, a place or a former name. People type either part alone:
 *
 * - bracket content alone: Y (an "a.k.a." or "f.k.a." marker in front of it dropped), when it is
 *   another name of the entity rather than a place or a remark ("(LONDON)", "(HK)"): an acronym
 *   of X or X of it, a distinctive word of X repeated, or a name the entity is also listed under;
 *   and only when the bracket ends the name, legal forms aside;
 * - name without the bracket: X, when Y is more than a legal form;
 * - acronym added: a listed name without brackets written "Name (ACRONYM)", the acronym being the
 *   initials of its words (designations and connectives left out), as registries and letterheads do.
 */
import type { ListEntity } from '../../../src/screening/model.ts';
import { type ClassVariant, findCase, sameNameAs } from './class-case.ts';
import { hasDistinctive, type OrgVocabulary, withoutDesignations } from './org-vocabulary.ts';
import { CONNECTIVES, isLatinName, isPlainName, joinWords, type Word, wordsOf } from './words.ts';

const ALIAS_MARKER = /^(?:a\.?k\.?a\.?|f\.?k\.?a\.?|formerly|also known as)[\s,:.]*/i;

/** "X (Y) Z" → outside "X Z", inside "Y" and after "Z"; undefined unless the name has exactly one bracketed part. */
export function splitBracket(name: string): { outside: string; inside: string; after: string } | undefined {
  const match = /^([^()]*)\(([^()]+)\)([^()]*)$/.exec(name);
  if (!match) return undefined;
  const [, before = '', inside = '', after = ''] = match;
  return {
    outside: joinWords(wordsOf(`${before} ${after}`)),
    inside: joinWords(wordsOf(inside.trim().replace(ALIAS_MARKER, ''))),
    after: joinWords(wordsOf(after)),
  };
}

/**
 * One word that is an acronym of a name of 2+ words: its first letter the name's, and three in four
 * of its letters initials of the name's words (acronyms from the original language miss a few: MITEC).
 */
function abbreviates(short: readonly Word[], long: readonly Word[]): boolean {
  const [word] = short;
  if (short.length !== 1 || word === undefined || word.token.length < 2 || long.length < 2 || word.token[0] !== long[0]?.token[0]) return false;
  const initials = new Set(long.map((w) => w.token[0]));
  return [...word.token].filter((letter) => initials.has(letter)).length >= 0.75 * word.token.length;
}

/**
 * True when the bracket holds another name of the entity, not a place or a remark; and closes the
 * name (legal forms aside): in "CSSC (…) 710th Research Institute" the bracket names the parent.
 */
export function bracketNamesEntity(vocabulary: OrgVocabulary, parts: { outside: string; inside: string; after: string }, entity: ListEntity): boolean {
  if (hasDistinctive(vocabulary, withoutDesignations(vocabulary, wordsOf(parts.after)))) return false;
  const inside = withoutDesignations(vocabulary, wordsOf(parts.inside));
  const outside = withoutDesignations(vocabulary, wordsOf(parts.outside));
  const repeated = inside.some((w) => vocabulary.isDistinctive(w.token) && outside.some((o) => o.token === w.token));
  return abbreviates(inside, outside) || abbreviates(outside, inside) || repeated || entity.names.some(sameNameAs(parts.inside, entity));
}

/**
 * The name followed by the initials of its words in brackets (connectives and designations left
 * out); undefined for fewer than 2 or more than 8 words, a word that begins with a digit, or a name
 * already spelled in letters (B R C).
 */
export function withAcronym(vocabulary: OrgVocabulary, name: string): string | undefined {
  const all = withoutDesignations(vocabulary, wordsOf(name));
  const words = all.filter((w) => !CONNECTIVES.has(w.token));
  if (all.filter((w) => w.token.length === 1).length >= 2 || words.length < 2 || words.length > 8 || words.some((w) => /^\d/.test(w.token))) return undefined;
  return `${name} (${words.map((w) => w.text[0]?.toUpperCase()).join('')})`;
}

export function bracketVariants(vocabulary: OrgVocabulary, organizations: readonly ListEntity[]): ClassVariant[] {
  const inside: ClassVariant = { name: 'bracketed: bracket content alone', cases: [] };
  const outside: ClassVariant = { name: 'bracketed: name without the bracket', cases: [] };
  const acronym: ClassVariant = { name: 'bracketed: "Full Name (ACRONYM)" added', cases: [] };
  for (const entity of organizations) {
    const bracketed = entity.names
      .filter((n) => (n.kind === 'primary' || n.kind === 'strong_alias') && isLatinName(n.full))
      .map((n) => ({ listed: n.full, parts: splitBracket(n.full) }))
      .find((n) => n.parts !== undefined);
    if (bracketed?.parts) {
      const { listed, parts } = bracketed;
      const made = `listed: ${listed}`;
      if (hasDistinctive(vocabulary, wordsOf(parts.inside)) && bracketNamesEntity(vocabulary, parts, entity))
        inside.cases.push(findCase(entity, { name: parts.inside, kind: 'organization' }, made));
      if (hasDistinctive(vocabulary, wordsOf(parts.outside)) && withoutDesignations(vocabulary, wordsOf(parts.inside)).length > 0) {
        outside.cases.push(findCase(entity, { name: parts.outside, kind: 'organization' }, made));
      }
    }
    const primary = entity.names.find((n) => n.kind === 'primary')?.full;
    const written = primary && isPlainName(primary) ? withAcronym(vocabulary, primary) : undefined;
    if (written) acronym.cases.push(findCase(entity, { name: written, kind: 'organization' }, `listed: ${primary}`));
  }
  return [inside, outside, acronym];
}
