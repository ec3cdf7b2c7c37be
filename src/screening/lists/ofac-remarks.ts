/**
 * OFAC's Remarks field: semi-structured facts separated by "; ". What screening needs is taken
 * out (weak a.k.a.s, dates and places of birth, nationality, citizenship, gender, identifiers,
 * linked entities); the text stays as it was for the evidence.
 */
import { countryCode } from '../countries.ts';
import { WRITTEN_LABELS } from '../identifier-types.ts';
import type { DateOfBirth, Identifier, PartialDate } from '../model.ts';

export type RemarkFacts = {
  weakAliases: string[];
  datesOfBirth: DateOfBirth[];
  placesOfBirth: string[];
  nationalities: string[];
  citizenships: string[];
  /** Vessels: "nationality of Registration X", the flag state. */
  flagStates: string[];
  gender?: 'male' | 'female';
  identifiers: Identifier[];
  linkedTo: string[];
};

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * Identifier labels as OFAC writes them, and the type recorded: the first labels read keep the
 * names they were recorded under (a changed name would change every such entry's content hash);
 * the labels read since (identifier-types.ts, which maps both onto the types screening compares)
 * are recorded as written. The first matching label wins.
 */
const IDENTIFIER_LABELS: [RegExp, string][] = [
  [/^National ID No\.?\s*/i, 'national_id'],
  [/^Passport\s+/i, 'passport'],
  [/^Tax ID No\.?\s*/i, 'tax_id'],
  [/^SSN\s+/i, 'ssn'],
  [/^Cedula No\.?\s*/i, 'cedula'],
  [/^Registration (?:Number|ID)\s+/i, 'registration_number'],
  [/^Legal Entity Number\s+/i, 'lei'],
  [/^Vessel Registration Identification IMO\s+/i, 'imo'],
  [/^IMO\s+/i, 'imo'],
  [/^MMSI\s+/i, 'mmsi'],
  [/^Aircraft Manufacturer's Serial Number \(MSN\)\s+/i, 'aircraft_msn'],
  [/^SWIFT\/BIC\s+/i, 'swift_bic'],
  [/^Digital Currency Address - (\w+)\s+/i, 'digital_currency_address'],
  ...WRITTEN_LABELS.map((label): [RegExp, string] => [labelPattern(label), label]),
];

/** A label at the start of a fact, its final period optional ("Matricula Mercantil No" is also written "No."). */
function labelPattern(label: string): RegExp {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\\\.$/, '\\.?')}\\s+`, 'i');
}

/** Where a value ends and what OFAC says about it begins: "A1234567 (Iran) expires 31 Dec 2026". */
const NOTE_START = /\s(?:issued|expires?|expired|expiring|valid)\b/i;

export function parseRemarks(remarks: string | undefined): RemarkFacts {
  const facts: RemarkFacts = {
    weakAliases: [],
    datesOfBirth: [],
    placesOfBirth: [],
    nationalities: [],
    citizenships: [],
    flagStates: [],
    identifiers: [],
    linkedTo: [],
  };
  if (!remarks) return facts;

  // A weak alias may itself contain an apostrophe (ABU-'UMAR): it ends at a quote that is
  // followed by the end of the fact (";", ".", "," or the end of the text).
  for (const match of remarks.matchAll(/a\.k\.a\.,? '(.+?)'(?=\s*(?:[;.,]|$))/g)) facts.weakAliases.push((match[1] as string).trim());

  for (const raw of remarks.split(/;\s*/)) {
    const fact = raw.trim().replace(/\.$/, '');
    let m: RegExpExecArray | null;
    if ((m = /^(?:alt\. )?DOB (.+)$/i.exec(fact))) {
      const dob = parseDateOfBirth(m[1] as string);
      if (dob) facts.datesOfBirth.push(dob);
    } else if ((m = /^(?:alt\. )?POB (.+)$/i.exec(fact))) facts.placesOfBirth.push((m[1] as string).trim());
    else if ((m = /^(?:alt\. )?nationality of Registration (.+)$/i.exec(fact))) facts.flagStates.push((m[1] as string).trim());
    else if ((m = /^(?:alt\. )?nationality (.+)$/i.exec(fact))) facts.nationalities.push((m[1] as string).trim());
    else if ((m = /^(?:alt\. )?citizen (.+)$/i.exec(fact))) facts.citizenships.push((m[1] as string).trim());
    else if ((m = /^Gender (Male|Female)$/i.exec(fact))) facts.gender = (m[1] as string).toLowerCase() as 'male' | 'female';
    // Kept as written: OFAC ends the fact with a period, and "CO., LTD." gets only one, so the
    // period cannot be told apart from the name (matching ignores punctuation anyway).
    else if ((m = /^Linked To: (.+)$/i.exec(raw.trim()))) facts.linkedTo.push((m[1] as string).trim());
    else {
      const identifier = parseIdentifier(fact);
      if (identifier) facts.identifiers.push(identifier);
    }
  }
  return facts;
}

/** An identifier written as OFAC writes one ("Passport A1234567 (Iran) expires 2026"), recorded under the type name OFAC's parser uses; undefined for a label it does not know. */
export function parseIdentifier(fact: string): Identifier | undefined {
  // "alt. Passport …": another passport of the same person.
  const body = fact.replace(/^alt\.\s+/i, '');
  for (const [label, type] of IDENTIFIER_LABELS) {
    const m = label.exec(body);
    if (!m) continue;
    const rest = body.slice(m[0].length).trim();
    // The value runs to its first parenthesis or note, and may hold spaces ("660000 73767", "HE 47364").
    const paren = rest.indexOf(' (');
    const note = NOTE_START.exec(rest)?.index ?? -1;
    const end = Math.min(...[paren, note, rest.length].filter((i) => i >= 0));
    const value = rest.slice(0, end).trim();
    if (!value) return undefined;
    // "(Iran)" is the issuing country; another parenthesis ("(Stuttgart) (Germany)") is kept as a note.
    let tail = rest.slice(end).trim();
    let country: string | undefined;
    const notes = m[1] ? [`currency ${m[1]}`] : [];
    for (let p = /^\(([^)]*)\)\s*/.exec(tail); p; p = /^\(([^)]*)\)\s*/.exec(tail)) {
      const code = country ? undefined : countryCode(p[1] as string);
      if (code) country = code;
      else notes.push(p[1] as string);
      tail = tail.slice(p[0].length);
    }
    if (tail) notes.push(tail);
    return { type, value, ...(country && { country }), ...(notes.length > 0 && { note: notes.join('; ') }) };
  }
  return undefined;
}

/** "12 Feb 1961", "Feb 1961", "1961", "circa 1965", "1960 to 1962". */
export function parseDateOfBirth(text: string): DateOfBirth | undefined {
  const t = text.trim();
  const circa = /^circa\s+/i.test(t);
  const body = t.replace(/^circa\s+/i, '');
  const range = /^(.+?)\s+to\s+(.+)$/i.exec(body);
  if (range) {
    const from = parseDate(range[1] as string);
    const until = parseDate(range[2] as string);
    return from && until ? { ...from, until, ...(circa && { circa }) } : undefined;
  }
  const date = parseDate(body);
  return date ? { ...date, ...(circa && { circa }) } : undefined;
}

function parseDate(text: string): PartialDate | undefined {
  const m = /^(?:(\d{1,2})\s+)?(?:([A-Za-z]{3})[a-z]*\.?\s+)?(\d{4})$/.exec(text.trim());
  if (!m) return undefined;
  const year = Number(m[3]);
  const month = m[2] ? MONTHS.indexOf((m[2] as string).toLowerCase()) + 1 : undefined;
  if (month === 0) return undefined;
  const day = m[1] ? Number(m[1]) : undefined;
  if (day !== undefined && month === undefined) return undefined;
  return { year, ...(month && { month }), ...(day && { day }) };
}
