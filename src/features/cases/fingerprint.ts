/**
 * A subject's fingerprint: what a suppression remembers of the party a match was about, so that
 * the same party screened again is recognized and a different one is not. Names are compared
 * folded (case, diacritics, script, spacing and word order do not matter), with the facts that
 * tell two people of one name apart: date of birth and nationality for a person, country for an
 * organization, and the identifiers given. Change any of them and the suppression no longer applies.
 */
import { canonicalJson } from '../../canonical-json.ts';
import { compactValue } from '../../screening/identifier-types.ts';
import { foldWords } from '../../screening/normalize/fold.ts';
import { sha256Hex } from '../../sha256.ts';

export type FingerprintInput = {
  subject?: string;
  company?: string;
  type: 'person' | 'organization' | 'vessel';
  country?: string;
  nationality?: string;
  date_of_birth?: string;
  /** The subject's (or, with no subject, the company's); subjects screened without any keep the fingerprint they had. */
  identifiers?: { type: string; value: string; country?: string }[];
};

/** Identifiers in one order and form, so that "A 123-456" and "A123456" fingerprint alike. */
const identifiersOf = (input: FingerprintInput) =>
  input.identifiers?.length ? { identifiers: input.identifiers.map((i) => `${i.type}:${compactValue(i.value)}:${i.country ?? ''}`).sort() } : {};

const folded = (name: string) =>
  foldWords(name)
    .map((w) => w.text)
    .sort()
    .join(' ');

/** The fingerprint of the party a match on `field` was about: the subject (or an alias of it), or the company. */
export function subjectFingerprint(input: FingerprintInput, field: 'subject' | 'alias' | 'company'): string {
  const party =
    field === 'company'
      ? { type: 'organization', name: folded(input.company ?? ''), country: input.country ?? null, ...(input.subject === undefined && identifiersOf(input)) }
      : {
          type: input.type,
          name: folded(input.subject ?? ''),
          date_of_birth: input.date_of_birth ?? null,
          nationality: input.nationality ?? null,
          ...(input.type === 'organization' && { country: input.country ?? null }),
          ...identifiersOf(input),
        };
  return sha256Hex(canonicalJson(party));
}
