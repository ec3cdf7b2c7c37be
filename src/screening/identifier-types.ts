/**
 * Identifiers as the engine compares them: a closed set of types, the labels every list parser
 * records mapped onto them, and values reduced to the one form lists and callers both reach
 * (upper case, letters and digits only, "IMO 9187629" → 9187629). The lists' own labels and values
 * stay on the entities as written, for display; only comparison uses these forms.
 *
 * - `passport`: any travel document (diplomatic, stateless person's).
 * - `national_id`: national identity numbers and cards, and the personal numbers that serve as
 *   them (Colombian cédula, Mexican CURP, Spanish DNI, US SSN, residency numbers).
 * - `tax_id`: tax numbers (Russian INN, VAT numbers, Colombian NIT, Peruvian RUC, Mexican RFC).
 * - `registration`: company registration numbers (Russian OGRN, Chinese USCC, Companies House,
 *   chambers of commerce, trade licences) and D-U-N-S numbers.
 * - `lei`: the 20-character Legal Entity Identifier (ISO 17442).
 * - `imo`: a ship's IMO number (7 digits, the last a check digit), or a shipping company's IMO
 *   company number (7 digits, no check digit).
 * - `mmsi`: a ship's Maritime Mobile Service Identity (9 digits).
 * - `other`: anything else (SWIFT/BIC, call signs, aircraft serial numbers): it corroborates a
 *   name match when it equals a listed value, and never finds an entry on its own.
 */
export const IDENTIFIER_TYPES = ['passport', 'national_id', 'tax_id', 'registration', 'lei', 'imo', 'mmsi', 'other'] as const;
export type IdentifierType = (typeof IDENTIFIER_TYPES)[number];

/** An identifier a subject carries, as the caller gave it; `country` is the issuing country (ISO 3166-1 alpha-2). */
export type SubjectIdentifier = { type: IdentifierType; value: string; country?: string };

/**
 * Types that may hold the same number: lists and callers file one number under either type of a
 * pair. Colombia issues passports under the cédula number (28 SDN entries list one value as both),
 * the UN files passports as "National Identification Number" and back; a Chinese USCC, a Belgian
 * enterprise number or a Turkish MERSIS number is the company's tax number and its registration.
 */
export type IdentifierClass = 'document' | 'business' | 'lei' | 'imo' | 'mmsi';
export const CLASS_OF: Record<IdentifierType, IdentifierClass | undefined> = {
  passport: 'document',
  national_id: 'document',
  tax_id: 'business',
  registration: 'business',
  lei: 'lei',
  imo: 'imo',
  mmsi: 'mmsi',
  other: undefined,
};

/** Numbers issued by a country, so that two issuers mean two different numbers. IMO, MMSI and LEI numbers are global. */
export const COUNTRY_BOUND: ReadonlySet<IdentifierClass> = new Set(['document', 'business']);

export const TYPE_WORDS: Record<IdentifierType, string> = {
  passport: 'passport',
  national_id: 'national ID',
  tax_id: 'tax ID',
  registration: 'registration number',
  lei: 'LEI',
  imo: 'IMO number',
  mmsi: 'MMSI',
  other: 'identifier',
};

/**
 * The names the OFAC parser records the labels it read first under (ofac-remarks.ts), each with
 * its type (undefined: `other`) and the label as OFAC writes it, for display.
 */
const OFAC_RECORDED: Record<string, [IdentifierType, string]> = {
  passport: ['passport', 'Passport'],
  national_id: ['national_id', 'National ID No.'],
  cedula: ['national_id', 'Cedula No.'],
  ssn: ['national_id', 'SSN'],
  tax_id: ['tax_id', 'Tax ID No.'],
  registration_number: ['registration', 'Registration Number'],
  lei: ['lei', 'Legal Entity Number'],
  imo: ['imo', 'IMO'],
  mmsi: ['mmsi', 'MMSI'],
  aircraft_msn: ['other', "Aircraft Manufacturer's Serial Number (MSN)"],
  swift_bic: ['other', 'SWIFT/BIC'],
  digital_currency_address: ['other', 'Digital Currency Address'],
  call_sign: ['other', 'Call Sign'],
  vessel_flag: ['other', 'Vessel Flag'],
};

/**
 * Identifier labels as the lists write them, by type: OFAC's remarks (which the OFAC parser reads
 * by these labels too), the CSL's ids and the UN's documents. Other labels (Website, Email
 * Address, ISIN, Driver's License No. …) count as `other`.
 */
const WRITTEN: Record<Exclude<IdentifierType, 'other'>, string[]> = {
  passport: ['Passport', 'Diplomatic Passport', 'Stateless Person Passport', 'Numéro de passeport', 'Número de pasaporte'],
  national_id: [
    'National ID No.',
    'National Identification Number',
    'National Foreign ID Number',
    'Identification Number',
    'Personal ID Card',
    'Stateless Person ID Card',
    'Cedula No.',
    'C.U.R.P.',
    'C.U.I.',
    'D.N.I.',
    'CNP (Personal Numerical Code)',
    'Residency Number',
    'Electoral Registry No.',
    'Credencial electoral',
  ],
  tax_id: [
    'Tax ID No.',
    'V.A.T. Number',
    'NIT #',
    'RUC #',
    'R.F.C.',
    'RFC',
    'RIF #',
    'Italian Fiscal Code',
    'Fiscal Code',
    'Numero Unico de Identificacao Tributaria (NUIT)',
  ],
  registration: [
    'Registration Number',
    'Registration ID',
    'Business Registration Number',
    'Business Registration Document #',
    'Public Registration Number',
    'Company Number',
    'UK Company Number',
    'Commercial Registry Number',
    'C.R. No.',
    'Romanian C.R.',
    'Chamber of Commerce Number',
    'Istanbul Chamber of Comm. No.',
    'Central Registration System Number',
    'Government Gazette Number',
    'Unified Social Credit Code (USCC)',
    'Folio Mercantil No.',
    'Matricula Mercantil No',
    'Trade License No.',
    'Economic Register Number (CBLS)',
    'Enterprise Number',
    'Business Number',
    'Registered Charity No.',
    'D-U-N-S Number',
  ],
  lei: ['Legal Entity Number'],
  imo: ['Vessel Registration Identification', 'Vessel Registration Identification IMO', 'Identification Number IMO', 'Company Number IMO'],
  mmsi: ['MMSI'],
};

/** Every label in WRITTEN, longest first, so that a reader trying them in turn meets "Company Number IMO" before "Company Number". */
export const WRITTEN_LABELS: readonly string[] = Object.values(WRITTEN)
  .flat()
  .sort((a, b) => b.length - a.length);

/** A label without case, accents, punctuation or an "alt." in front: "alt. R.F.C." and "RFC" are one label. */
const foldLabel = (label: string) =>
  label
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/^alt\.?\s+/, '')
    .replace(/[^a-z0-9]/g, '');

const TYPE_BY_LABEL = new Map<string, IdentifierType>([
  ...Object.entries(WRITTEN).flatMap(([type, labels]) => labels.map((label) => [foldLabel(label), type as IdentifierType] as const)),
  ...Object.entries(OFAC_RECORDED).map(([recorded, [type]]) => [foldLabel(recorded), type] as const),
]);

/** Labels as recorded, read once each: a list holds tens of thousands of identifiers under a few dozen labels. */
const typeByRecordedLabel = new Map<string, IdentifierType | undefined>();

/** The type of a label as a list records it; undefined for a label this table does not know (compared as `other`). */
export function identifierTypeOf(label: string): IdentifierType | undefined {
  if (typeByRecordedLabel.has(label)) return typeByRecordedLabel.get(label);
  const type = TYPE_BY_LABEL.get(foldLabel(label));
  // UN and CSL labels are free text: only so many distinct ones are remembered.
  if (typeByRecordedLabel.size < 10_000) typeByRecordedLabel.set(label, type);
  return type;
}

/** A listed identifier in the list's words: its label and its value as written. */
export const listedIdentifierText = (identifier: { type: string; value: string; country?: string }) =>
  `${OFAC_RECORDED[identifier.type]?.[1] ?? identifier.type} ${identifier.value}${identifier.country ? ` (${identifier.country})` : ''}`;

/** Names of numbering schemes written before the number ("Tax ID No. RIF J-31069374-9", "INN 7702070139"). */
// biome-ignore format: a word table, packed by hand
const SCHEME_NAMES = new Set(['IMO', 'MMSI', 'LEI', 'INN', 'OGRN', 'OGRNIP', 'KPP', 'OKPO', 'RIF', 'NIT', 'RUC', 'RFC', 'CURP', 'DNI', 'NIF', 'CIF', 'TIN', 'VAT', 'USCC', 'DUNS', 'NO', 'NR']);

/**
 * A word around the number rather than part of it: "passport", "no.", "Libya", "RIF" are; a
 * series prefix written apart ("OB 0243318", "TR-P 614 166", "a 1234567") is not. Other words of
 * up to three capitals, or of one or two letters, are taken for prefixes.
 */
function isProse(token: string): boolean {
  const letters = token.replace(/[^\p{L}\p{N}]/gu, '');
  if (letters.length === 0 || /\p{N}/u.test(letters)) return false;
  return letters.length > 3 || (letters.length === 3 && /\p{Ll}/u.test(letters)) || SCHEME_NAMES.has(letters.toUpperCase());
}

/**
 * The number in a value that also carries words, as the UN writes many ("CAR diplomatic passport
 * no. D00000897", "Libya 428720", "381110042 (Expired 25 Jan. 2016)", "R00012098, South Sudan"): the
 * words after the last word of prose, before any comma, without parenthesized notes. A value that
 * is all number comes back whole.
 */
export function identifierCore(value: string): string {
  // Most values are one word: nothing to take apart (the reading below would give it back whole).
  if (!/[\s(),;№]/.test(value)) return value.normalize('NFKC');
  const text =
    value
      .replace(/№/g, ' No ')
      .normalize('NFKC')
      .replace(/\([^)]*\)/g, ' ')
      .split(/[,;]/)[0] ?? '';
  const tokens = text.split(/\s+/).filter(Boolean);
  const lastProse = tokens.findLastIndex(isProse);
  if (lastProse < tokens.length - 1) return tokens.slice(lastProse + 1).join(' ');
  // The words come last ("R00012098 South Sudan", "FN292891 y"): the number is the run before them.
  let end = lastProse;
  while (end >= 0 && isProse(tokens[end] as string)) end--;
  let start = end;
  while (start > 0 && !isProse(tokens[start - 1] as string)) start--;
  return end >= 0 ? tokens.slice(start, end + 1).join(' ') : text.trim();
}

/** Cyrillic and Greek capitals that look like Latin ones, as a number copied from a Russian or Greek document carries them. */
const LOOKALIKES: Record<string, string> = Object.fromEntries(
  [...'АВЕКМНОРСТУХ'].map((c, i) => [c, 'ABEKMHOPCTYX'[i] as string]).concat([...'ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ'].map((c, i) => [c, 'ABEZHIKMNOPTYX'[i] as string])),
);

/** Upper case, letters and digits only: "A 123-456.7" → A1234567. */
export const compactValue = (value: string) =>
  value
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\u0370-\u04FF]/g, (c) => LOOKALIKES[c] ?? c)
    .replace(/[^A-Z0-9]/g, '');

/**
 * The value of an identifier of this type in the form compared, or undefined when the value cannot
 * be one: an IMO number has 7 digits, an MMSI 9, an LEI 20 letters and digits.
 */
export function normalizeIdentifier(type: IdentifierType, value: string): string | undefined {
  const core = identifierCore(value);
  switch (type) {
    case 'imo':
      return digitsOf(core, 7);
    case 'mmsi':
      return digitsOf(core, 9);
    case 'lei': {
      const lei = compactValue(core);
      return lei.length === 20 ? lei : undefined;
    }
    default:
      return compactValue(core) || undefined;
  }
}

function digitsOf(core: string, length: number): string | undefined {
  const digits = core.replace(/\D/g, '');
  return digits.length === length ? digits : undefined;
}

/** A ship's IMO number: the seventh digit is the sum of the first six weighted 7 down to 2, mod 10. */
export function imoCheckDigitValid(digits: string): boolean {
  if (!/^\d{7}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(digits[i]) * (7 - i);
  return sum % 10 === Number(digits[6]);
}

/** ISO 17442: the LEI read as a number (A = 10 … Z = 35) is 1 modulo 97 (ISO 7064 MOD 97-10). */
export function leiChecksumValid(lei: string): boolean {
  if (!/^[A-Z0-9]{20}$/.test(lei)) return false;
  let remainder = 0;
  for (const char of lei) {
    const digits = char <= '9' ? char : String(char.charCodeAt(0) - 55);
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** Below this a passport, ID, tax or registration number is too often someone else's to find an entry on its own. */
export const MIN_DISTINCTIVE_LENGTH = 6;
/** Below this a value equal to a listed one corroborates nothing: too many entries share it. */
export const MIN_CORROBORATING_LENGTH = 4;

/**
 * Whether a normalized value is distinctive enough to find a list entry on its own. IMO, MMSI and
 * LEI numbers are unique by design; other numbers need six characters, a digit, and three
 * different characters (000000 and 121212 are placeholders more often than numbers). `other`
 * never finds on its own.
 */
export function isDistinctive(type: IdentifierType, value: string): boolean {
  switch (type) {
    case 'imo':
      return /^\d{7}$/.test(value);
    case 'mmsi':
      return /^\d{9}$/.test(value);
    case 'lei':
      return /^[A-Z0-9]{20}$/.test(value);
    case 'other':
      return false;
    default:
      return value.length >= MIN_DISTINCTIVE_LENGTH && /\d/.test(value) && new Set(value).size >= 3;
  }
}

/** A listed identifier as compared: its type and normalized value, or undefined when it holds nothing comparable. */
export type ComparableIdentifier = { type: IdentifierType; value: string };

/**
 * A list's identifier read for comparison. A "Legal Entity Number" that is not an LEI (OFAC files
 * some Dutch company numbers under it) is compared as the registration number it is.
 */
export function comparableListed(identifier: { type: string; value: string }): ComparableIdentifier | undefined {
  const type = identifierTypeOf(identifier.type) ?? 'other';
  const value = normalizeIdentifier(type, identifier.value);
  if (value !== undefined) return { type, value };
  if (type !== 'lei') return undefined;
  const registration = normalizeIdentifier('registration', identifier.value);
  return registration === undefined ? undefined : { type: 'registration', value: registration };
}
