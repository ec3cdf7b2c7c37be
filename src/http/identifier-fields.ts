/**
 * The `identifiers` field every screened subject may carry (prescreen, check-in, vendors,
 * workforce): its schema, which documents it, and the checks a schema cannot make, each refusal
 * naming its field (`/identifiers/0/value`). Identifiers are personal data: they are stored with
 * the subject and its screening, never logged or put in audit details.
 */
import { Type } from 'typebox';
import {
  IDENTIFIER_TYPES,
  type IdentifierType,
  imoCheckDigitValid,
  leiChecksumValid,
  normalizeIdentifier,
  type SubjectIdentifier,
} from '../screening/identifier-types.ts';
import type { InputChecker } from './input-checker.ts';
import { countryCode, enumOf, NO_CONTROL } from './text-fields.ts';

export const MAX_IDENTIFIERS = 10;
const MAX_VALUE_LENGTH = 64;

/** What a subject may be identified by, by what it is. */
export type IdentifiedKind = 'person' | 'organization' | 'vessel';
const TYPES_OF: Record<IdentifiedKind, readonly IdentifierType[]> = {
  person: ['passport', 'national_id', 'tax_id', 'registration', 'other'],
  organization: ['tax_id', 'registration', 'lei', 'imo', 'other'],
  vessel: ['imo', 'mmsi', 'other'],
};

export const IdentifierBody = Type.Object(
  {
    type: enumOf(
      IDENTIFIER_TYPES,
      [
        'What the number is.',
        '`passport` (any travel document), `national_id` (national identity numbers and cards, cédula, CURP, DNI, SSN),',
        '`tax_id` (INN, VAT, NIT, RUC, RFC and other tax numbers), `registration` (OGRN, USCC, Companies House and other company registration numbers, D-U-N-S),',
        "`lei` (Legal Entity Identifier, 20 characters), `imo` (a ship's IMO number, or a shipping company's IMO company number), `mmsi` (a ship's 9-digit MMSI),",
        '`other` (anything else: it corroborates a match when the entry lists it, and finds nothing on its own).',
        'A person may carry passport, national_id, tax_id, registration and other; an organization tax_id, registration, lei, imo and other; a vessel imo, mmsi and other.',
      ].join(' '),
    ),
    value: Type.String({
      minLength: 1,
      maxLength: MAX_VALUE_LENGTH,
      pattern: NO_CONTROL,
      description:
        'The number as written on the document. Case, spaces, dashes and dots do not matter (`A 123-456.7` = `A1234567`); a scheme prefix may be given (`IMO 9187629`). ' +
        "An `imo` is 7 digits, and a vessel's must pass its check digit; an `mmsi` is 9 digits; an `lei` is 20 letters and digits that pass the ISO 17442 check.",
      examples: ['IMO 9187629', 'A1234567', '7702070139'],
    }),
    country: Type.Optional(
      countryCode(
        'The issuing country. A passport, national ID, tax or registration number issued by another country than the one the list names is another number, and finds nothing.',
      ),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { type: 'passport', value: 'A1234567', country: 'IR' },
      { type: 'imo', value: 'IMO 9187629' },
    ],
  },
);

export type IdentifierBody = { type: IdentifierType; value: string; country?: string };

/** The field itself; `whose` says whose identifiers they are, for the description. */
export const identifiersField = (whose: string) =>
  Type.Array(IdentifierBody, {
    maxItems: MAX_IDENTIFIERS,
    description:
      `${whose}, up to ${MAX_IDENTIFIERS}. One listed on an entry the name matched corroborates the match strongly. ` +
      'A distinctive one (an IMO, MMSI or LEI; another number of 6 characters or more with a digit) that a list entry carries is a potential match on its own, whatever the names, ' +
      'explained as found by identifier: a vessel renamed since its listing, a person under another transliteration. Personal data: stored with the screening, never logged.',
    examples: [
      [{ type: 'passport', value: 'A1234567', country: 'IR' }],
      [
        { type: 'imo', value: 'IMO 9187629' },
        { type: 'mmsi', value: '572469210' },
      ],
    ],
  });

const VALUE_FORMS: Partial<Record<IdentifierType, string>> = {
  imo: 'an IMO number is 7 digits, e.g. IMO 9187629',
  mmsi: 'an MMSI is 9 digits',
  lei: 'an LEI is 20 letters and digits',
};

/** The identifiers cleaned (values trimmed, countries upper-cased), every problem pushed to `check` with its pointer. */
export function checkIdentifiers(
  check: InputChecker,
  identifiers: IdentifierBody[] | undefined,
  pointer: string,
  kind: IdentifiedKind,
): SubjectIdentifier[] | undefined {
  if (identifiers === undefined) return undefined;
  const cleaned = identifiers.flatMap((identifier, i): SubjectIdentifier[] => {
    const at = `${pointer}/${i}`;
    if (!TYPES_OF[kind].includes(identifier.type)) {
      check.errors.push({ pointer: `${at}/type`, detail: `does not identify a ${kind}: a ${kind} may carry ${TYPES_OF[kind].join(', ')}` });
    }
    const value = check.text(identifier.value, `${at}/value`);
    const country = check.country(identifier.country, `${at}/country`);
    if (value === undefined) return [];
    const normalized = normalizeIdentifier(identifier.type, value);
    if (normalized === undefined) check.errors.push({ pointer: `${at}/value`, detail: VALUE_FORMS[identifier.type] ?? 'has no letters or digits' });
    else if (identifier.type === 'imo' && kind === 'vessel' && !imoCheckDigitValid(normalized)) {
      check.errors.push({
        pointer: `${at}/value`,
        detail: `IMO ${normalized} fails its check digit: a ship's IMO number ends in the sum of its first six digits weighted 7 to 2, mod 10`,
      });
    } else if (identifier.type === 'lei' && !leiChecksumValid(normalized))
      check.errors.push({ pointer: `${at}/value`, detail: `LEI ${normalized} fails its ISO 17442 check digits` });
    return [{ type: identifier.type, value, ...(country && { country }) }];
  });
  return cleaned.length > 0 ? cleaned : undefined;
}
