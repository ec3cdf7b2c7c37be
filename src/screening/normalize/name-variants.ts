/**
 * The readings of a name: the name itself, its Korean reading when it is written in Hanja (see
 * sino-korean.ts), and, for a name written with a part in brackets or quotes, its parts.
 *
 * Lists and people write "Joint Stock Company Rosoboronexport (JSC ROE)", "Rostec (Russian
 * Technologies State Corporation)", «Almaz-Antey» inside a legal designation: the part in brackets
 * or quotes is sometimes more of the name, sometimes another name for the same party. Each is
 * tried: the whole name, the name without its bracketed parts, and each bracketed part on its own,
 * when it is more than a legal form or a stray letter. The index keeps the parts of listed names;
 * the screening decides what a match through a part is worth (screening-index.ts).
 */
import { foldWords, withLookalikeLetters } from './fold.ts';
import { isLegalFormPhrase } from './name-vocabulary.ts';
import { hanjaAsHangul } from './sino-korean.ts';

const ENCLOSED = /\(([^()]*)\)|\[([^[\]]*)\]|«([^«»]*)»|“([^“”]*)”|"([^"]*)"/g;

/** One reading of a name; `part`: a bracketed part, or the name without its bracketed parts. */
export type NameVariant = { text: string; part: boolean };

export function nameVariants(name: string): NameVariant[] {
  const hangul = hanjaAsHangul(name);
  if (hangul)
    return [
      { text: name, part: false },
      { text: hangul, part: false },
    ];
  if (!/[([«“"]/.test(name)) return [{ text: name, part: false }];
  const parts: string[] = [];
  const outside = name.replace(ENCLOSED, (_, ...groups: (string | undefined)[]) => {
    const inner = groups.slice(0, 5).find((g) => g !== undefined);
    if (inner !== undefined) parts.push(inner.trim());
    return ' ';
  });
  const variants = new Set([name]);
  for (const candidate of [outside.replace(/\s+/g, ' ').trim(), ...parts]) if (namesSomething(candidate)) variants.add(candidate);
  return [...variants].map((text, i) => ({ text, part: i > 0 }));
}

/** More than a legal form alone (JSC) and more than one letter: something a name could be. */
function namesSomething(text: string): boolean {
  const words = foldWords(text).map((w) => w.text);
  if (words.join('').length < 2) return false;
  return !isLegalFormPhrase(words);
}

/**
 * A query name's readings: its variants, and the name with look-alike digits read as letters
 * (see withLookalikeLetters): for an organization, a second reading beside its own; for a person,
 * whose digits fold.ts reads already, a third with 1 read as l rather than i.
 */
export function queryVariants(name: string, isPerson: boolean): NameVariant[] {
  const variants = nameVariants(name);
  // A person's name reads its digits as letters already (1 as i); a second reading takes 1 as l.
  for (const lettered of isPerson ? [withLookalikeLetters(name, 'l')] : [withLookalikeLetters(name), withLookalikeLetters(name, 'l')]) {
    if (lettered === undefined) continue;
    for (const variant of nameVariants(lettered)) if (!variants.some((known) => known.text === variant.text)) variants.push(variant);
  }
  return variants;
}
