/**
 * The UK Sanctions List as CSV (FCDO, `UK-Sanctions-List.csv`, SOURCES.md §17): a line
 * `Report Date: DD-Mon-YYYY`, the header, then one row per name (and per address) of a
 * designation, so that the rows sharing a Unique ID make one entity. Columns are found by their
 * header. Name 6 is a person's surname and the whole name of an entity or ship, Name 1–5 a
 * person's given names; a name is written surname first, as the FCDO's summary export (uk-fcdo.ts)
 * writes it, so that both exports give an entry the same name. `Name type` says whether a row's
 * name is the primary name, a variation of it or an alias, `Alias strength` how good an alias
 * is; the name in its own script is a name of its own. Dates are DD/MM/YYYY, a date of birth's
 * unknown day or month written 00 (or dd, mm); multiple values are joined by `|`.
 */
import { countryCode } from '../countries.ts';
import { type DateOfBirth, emptyEntity, type Identifier, type ListEntity, type ListedName, type NameKind } from '../model.ts';
import { readCsv } from './csv.ts';
import { lookup, mapCountries, unique } from './entity-fields.ts';
import type { ListReading } from './list-format.ts';
import { ListFormatError } from './list-format-error.ts';
import { designationRemarks, TYPES, ukDate } from './uk-fcdo.ts';

const NAME_PARTS = ['Name 1', 'Name 2', 'Name 3', 'Name 4', 'Name 5'] as const;
const ADDRESS_LINES = ['Address Line 1', 'Address Line 2', 'Address Line 3', 'Address Line 4', 'Address Line 5', 'Address Line 6'] as const;

/** The columns read; a header without any of them is not the UK list (or a layout this parser does not know). */
// biome-ignore format: a word table, packed by hand
const REQUIRED = [
  'Unique ID', 'OFSI Group ID', 'UN Reference Number', 'Name 6', ...NAME_PARTS, 'Name type', 'Alias strength', 'Title',
  'Name non-latin script', 'Regime Name', 'Designation Type', 'Designation source', 'Sanctions Imposed', 'Other Information',
  ...ADDRESS_LINES, 'Address Postal Code', 'Address Country', 'Date Designated', 'D.O.B', 'Nationality(/ies)',
  'National Identifier number', 'National Identifier additional information', 'Passport number', 'Passport additional information',
  'Position', 'Gender', 'Town of birth', 'Country of birth', 'Type of entity', 'Subsidiaries', 'Parent company',
  'Business registration number (s)', 'IMO number', 'Current owner/operator (s)', 'Current believed flag of ship',
] as const;
type Column = (typeof REQUIRED)[number];

/** One row's fields by column name. */
type Row = { at: (column: Column) => string | undefined; many: (column: Column) => string[] };

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

export function parseUkSanctionsCsv(text: string): ListReading {
  const records = readCsv(text);
  let first = records.next().value as string[] | undefined;
  const reportDate = /^Report Date:\s*(.*)$/i.exec(first?.[0]?.trim() ?? '')?.[1];
  if (reportDate !== undefined) first = records.next().value as string[] | undefined;
  const header = (first ?? []).map((column) => column.trim());
  const missing = REQUIRED.filter((column) => !header.includes(column));
  if (missing.length > 0)
    throw new ListFormatError(
      `This is not the UK Sanctions List CSV: its header (line ${reportDate === undefined ? 1 : 2}) lacks the columns ${missing.join(', ')}`,
    );
  const index = new Map(REQUIRED.map((column) => [column, header.indexOf(column)]));

  const designations = new Map<string, Row[]>();
  let record = reportDate === undefined ? 1 : 2;
  for (const fields of records) {
    record++;
    if (fields.length !== header.length)
      throw new ListFormatError(`Record ${record} has ${fields.length} fields, not ${header.length}: the file is malformed or truncated`);
    const at = (column: Column) => fields[index.get(column) as number]?.trim() || undefined;
    const row: Row = {
      at,
      many: (column) =>
        (at(column) ?? '')
          .split('|')
          .map((v) => v.trim())
          .filter(Boolean),
    };
    const id = at('Unique ID');
    if (!id) throw new ListFormatError(`Record ${record} has no Unique ID`);
    designations.set(id, [...(designations.get(id) ?? []), row]);
  }

  const notes = new Notes();
  const entities = [...designations].flatMap(([id, rows]) => toEntity(id, rows, notes) ?? []);
  if (entities.length === 0) throw new ListFormatError('The file has no designations');
  const publishedAt = reportDate === undefined ? undefined : reportDay(reportDate);
  return { list: 'UK_FCDO', entities, warnings: notes.warnings(), ...(publishedAt && { publishedAt }) };
}

function toEntity(id: string, rows: Row[], notes: Notes): ListEntity | undefined {
  const all = (column: Column) => unique(rows.flatMap((row) => row.many(column)));
  const typeName = all('Designation Type')[0] ?? all('Type of entity').find((t) => lookup(TYPES, t.toLowerCase()));
  const type = lookup(TYPES, typeName?.toLowerCase() ?? '');
  if (!type) notes.unknownType(typeName ?? '(none)');
  const names = namesOf(rows, type === 'person');
  if (!names.some((n) => n.kind === 'primary')) {
    const promoted = names.findIndex((n) => n.kind !== 'original_script');
    if (promoted < 0) {
      notes.unnamed.push(id);
      return undefined;
    }
    names[promoted] = { ...(names[promoted] as ListedName), kind: 'primary' };
    notes.withoutPrimary.push(id);
  }

  const datesOfBirth = all('D.O.B').flatMap((text) => birthDate(text) ?? (notes.unreadDates.push(`${id} "${text}"`), []));
  const addresses = uniqueBy(rows.flatMap((row) => address(row) ?? []));
  const nationalities = all('Nationality(/ies)');
  const birthCountries = all('Country of birth');
  const placesOfBirth = unique(rows.flatMap((row) => [row.at('Town of birth'), row.at('Country of birth')].filter(Boolean).join(', ') || []));
  const listedOn = ukDate(all('Date Designated')[0]);
  const gender = all('Gender')[0]?.toLowerCase();
  const title = unique([...all('Title'), ...all('Position')]).join('; ');
  const remarks = [
    designationRemarks({
      source: all('Designation source').join(', '),
      sanctions: all('Sanctions Imposed').join(', '),
      groupId: all('OFSI Group ID').join(', '),
    }),
    ...all('UN Reference Number').map((ref) => `UN reference ${ref}`),
    ...all('Other Information'),
  ]
    .filter(Boolean)
    .join('; ');

  return emptyEntity({
    list: 'UK_FCDO',
    entryId: id,
    type: type ?? 'organization',
    names,
    ...mapCountries([...addresses.flatMap((a) => a.countryName ?? []), ...nationalities, ...birthCountries]),
    datesOfBirth,
    placesOfBirth,
    nationalities,
    identifiers: identifiersOf(rows, all),
    programs: all('Regime Name'),
    linkedTo: unique([...all('Parent company'), ...all('Subsidiaries'), ...all('Current owner/operator (s)')]),
    addresses,
    ...(title && { title }),
    ...((gender === 'male' || gender === 'female') && { gender }),
    ...(remarks && { remarks }),
    ...(listedOn && { listedOn }),
  });
}

/** Every distinct name of a designation, in row order: the first primary name stays primary, a second one is an alias. */
function namesOf(rows: Row[], isPerson: boolean): ListedName[] {
  const names: ListedName[] = [];
  const add = (name: ListedName) => {
    if (!names.some((n) => n.full === name.full)) names.push(name);
  };
  for (const row of rows) {
    const family = row.at('Name 6');
    const given = NAME_PARTS.flatMap((part) => row.at(part) ?? []).join(' ');
    const full = [family, given].filter(Boolean).join(' ').replace(/\s+/g, ' ');
    if (full) {
      const kind = nameKind(
        row,
        names.some((n) => n.kind === 'primary'),
      );
      add(isPerson && family && given ? { full, kind, family, given } : { full, kind });
    }
    const script = row.at('Name non-latin script');
    if (script) add({ full: script, kind: 'original_script' });
  }
  return names;
}

/** `Primary name`, `Primary name variation` or `Alias`; an alias of `Low` strength is a weak alias. */
function nameKind(row: Row, hasPrimary: boolean): NameKind {
  const type = row.at('Name type')?.toLowerCase().replace(/\s+/g, ' ');
  if (type === 'primary name' && !hasPrimary) return 'primary';
  if (type === 'alias' && /\blow\b/i.test(row.at('Alias strength') ?? '')) return 'weak_alias';
  return 'strong_alias';
}

/** DD/MM/YYYY, with 00 (or dd, mm) for an unknown day or month; a year alone. */
function birthDate(text: string): DateOfBirth | undefined {
  const m = /^(\d{1,2}|dd)\/(\d{1,2}|mm)\/(\d{4})$/i.exec(text) ?? /^()()(\d{4})$/.exec(text);
  if (!m) return undefined;
  const day = Number(m[1]) || undefined;
  const month = Number(m[2]) || undefined;
  if ((month ?? 0) > 12 || (day ?? 0) > 31) return undefined;
  return { year: Number(m[3]), ...(month && { month }), ...(month && day && { day }) };
}

function address(row: Row): ListEntity['addresses'][number] | undefined {
  const street = ADDRESS_LINES.slice(0, 3)
    .flatMap((line) => row.at(line) ?? [])
    .join(', ');
  const cityStatePostal = [...ADDRESS_LINES.slice(3), 'Address Postal Code' as const].flatMap((line) => row.at(line) ?? []).join(', ');
  const countryName = row.at('Address Country');
  const country = countryName && countryCode(countryName);
  if (!street && !cityStatePostal && !countryName) return undefined;
  return { ...(street && { street }), ...(cityStatePostal && { cityStatePostal }), ...(country && { country }), ...(countryName && { countryName }) };
}

/**
 * Passports and national identifiers with what the FCDO adds about them (paired by position when
 * there are as many notes as numbers), company registration numbers, IMO numbers and flags. The
 * type names are those the OFAC parser records (identifier-types.ts maps them for comparison).
 */
function identifiersOf(rows: Row[], all: (column: Column) => string[]): Identifier[] {
  const documents = (type: string, numbers: Column, details: Column) =>
    rows.flatMap((row) => {
      const values = row.many(numbers);
      const notes = row.many(details);
      return values.map((value, i) => {
        const note = notes.length === values.length ? notes[i] : notes.join('; ');
        return { type, value, ...(note && { note }) };
      });
    });
  const identifiers: Identifier[] = [
    ...documents('passport', 'Passport number', 'Passport additional information'),
    ...documents('national_id', 'National Identifier number', 'National Identifier additional information'),
    ...all('Business registration number (s)').map((value) => ({ type: 'registration_number', value })),
    ...all('IMO number').map((value) => ({ type: 'imo', value })),
    ...all('Current believed flag of ship').map((value) => {
      const country = countryCode(value);
      return { type: 'vessel_flag', value, ...(country && { country }) };
    }),
  ];
  return uniqueBy(identifiers);
}

/** `13-Feb-2026` (or 13/02/2026) as YYYY-MM-DD. */
function reportDay(text: string): string | undefined {
  const m = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})/.exec(text.trim());
  const month = m ? MONTHS.indexOf((m[2] as string).toLowerCase()) + 1 : 0;
  if (m && month) return `${m[3]}-${String(month).padStart(2, '0')}-${(m[1] as string).padStart(2, '0')}`;
  const date = ukDate(text.trim());
  return date && `${date.year}-${String(date.month).padStart(2, '0')}-${String(date.day).padStart(2, '0')}`;
}

const uniqueBy = <T>(items: T[]): T[] => [...new Map(items.map((item) => [JSON.stringify(item), item])).values()];

/** What the parser dropped or guessed, told once per kind. */
class Notes {
  unnamed: string[] = [];
  withoutPrimary: string[] = [];
  unreadDates: string[] = [];
  private types = new Map<string, number>();
  unknownType(name: string) {
    this.types.set(name, (this.types.get(name) ?? 0) + 1);
  }
  warnings(): string[] {
    const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
    return [
      ...(this.unnamed.length
        ? [
            `${count(this.unnamed.length, 'designation has', 'designations have')} no name and ${this.unnamed.length === 1 ? 'is' : 'are'} left out: ${this.unnamed.join(', ')}`,
          ]
        : []),
      ...(this.withoutPrimary.length
        ? [
            `${count(this.withoutPrimary.length, 'designation has', 'designations have')} no primary name; the first alias is taken as the name: ${this.withoutPrimary.join(', ')}`,
          ]
        : []),
      ...(this.unreadDates.length
        ? [
            `${count(this.unreadDates.length, 'date of birth is', 'dates of birth are')} not a date and left out: ${this.unreadDates.slice(0, 5).join(', ')}${this.unreadDates.length > 5 ? ', …' : ''}`,
          ]
        : []),
      ...[...this.types].map(
        ([name, n]) =>
          `${count(n, 'designation', 'designations')} of type "${name}", which Gatehouse does not know, ${n === 1 ? 'is' : 'are'} kept as ${n === 1 ? 'an organization' : 'organizations'}`,
      ),
    ];
  }
}
