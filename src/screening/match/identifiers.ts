/**
 * What identifiers say about a match: an identifier the subject gives that equals one on the entry
 * corroborates the name strongly; a distinctive one found the entry by itself (the index found
 * it), and such a match alerts whatever the name, at IDENTIFIER_FOUND_SCORE at least. A different
 * passport on the entry is no contradiction: people hold several, and lists hold few of them.
 */

import {
  CLASS_OF,
  COUNTRY_BOUND,
  comparableListed,
  listedIdentifierText,
  MIN_CORROBORATING_LENGTH,
  normalizeIdentifier,
  type SubjectIdentifier,
  TYPE_WORDS,
} from '../identifier-types.ts';
import type { IdentifierHit } from '../index/identifier-index.ts';
import type { QualifierExplanation } from '../match-types.ts';
import type { ListEntity } from '../model.ts';
import type { Verdict } from './verdict.ts';

/** The share of the distance to 1 an equal identifier closes. */
export const IDENTIFIER_CORROBORATION = 0.85;
/** The least score of a match a distinctive identifier found: above the default threshold, "high" in the queue. */
export const IDENTIFIER_FOUND_SCORE = 0.95;

/** The subject's identifier as compared ("IMO 9187629" is IMO number 9187629), with its issuing country. */
const givenText = (given: SubjectIdentifier, value: string) => `${TYPE_WORDS[given.type]} ${value}${given.country ? ` (${given.country})` : ''}`;

/**
 * An identifier the subject gives that the entry lists too: same value, comparable types (either
 * side `other` compares with any), and for numbers a country issues, no two different issuers. An
 * equal number from another issuer is reported and moves nothing.
 */
export function identifierVerdict(identifiers: readonly SubjectIdentifier[], entity: ListEntity): Verdict | undefined {
  if (identifiers.length === 0 || entity.identifiers.length === 0) return undefined;
  let otherIssuer: string | undefined;
  for (const given of identifiers) {
    const value = normalizeIdentifier(given.type, given.value);
    if (value === undefined || value.length < MIN_CORROBORATING_LENGTH) continue;
    for (const listed of entity.identifiers) {
      const comparable = comparableListed(listed);
      if (comparable?.value !== value) continue;
      const givenClass = CLASS_OF[given.type];
      const listedClass = CLASS_OF[comparable.type];
      if (givenClass && listedClass && givenClass !== listedClass) continue;
      const issued = [givenClass, listedClass].some((c) => c !== undefined && COUNTRY_BOUND.has(c));
      if (issued && given.country && listed.country && given.country !== listed.country) {
        otherIssuer ??= `${givenText(given, value)} is on the entry as issued by ${listed.country}: another issuer's number, not counted`;
        continue;
      }
      return {
        effect: 'corroborates',
        strength: IDENTIFIER_CORROBORATION,
        detail: `${givenText(given, value)} is on the entry (${listedIdentifierText(listed)})`,
      };
    }
  }
  return otherIssuer ? { effect: 'unknown', strength: 0, detail: otherIssuer } : undefined;
}

/** How the entry was found, in words: "IMO number 9187629 is on the entry (Vessel Registration Identification IMO 9187629)". */
export const foundByWords = (hits: readonly IdentifierHit[]) =>
  hits.map((h) => `${givenText(h.given, h.value)} is on the entry (${listedIdentifierText(h.listed)})`).join('; ');

/**
 * A match the identifier found, raised to IDENTIFIER_FOUND_SCORE when the name and the other
 * qualifiers left it lower, with the raise explained.
 */
export function raiseFoundByIdentifier(qualified: { score: number; qualifiers: QualifierExplanation[] }): {
  score: number;
  qualifiers: QualifierExplanation[];
} {
  const { score, qualifiers } = qualified;
  if (score >= IDENTIFIER_FOUND_SCORE) return qualified;
  const raise: QualifierExplanation = {
    factor: 'identifier',
    effect: 'corroborates',
    contribution: Math.round((IDENTIFIER_FOUND_SCORE - score) * 1000) / 1000,
    detail: `found by a distinctive identifier, which alerts whatever the name: raised to ${IDENTIFIER_FOUND_SCORE}`,
  };
  return { score: IDENTIFIER_FOUND_SCORE, qualifiers: [...qualifiers, raise] };
}

/** The match's summary when the identifier, not the name, found the entry. */
export const foundByIdentifierSummary = (hits: readonly IdentifierHit[], nameSummary: string) =>
  `Found by identifier: ${foundByWords(hits)}. The names differ: ${nameSummary}`;
