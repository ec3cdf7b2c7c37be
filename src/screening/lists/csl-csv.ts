/**
 * The Consolidated Screening List as CSV (SOURCES.md §6 header, §9 sample): one row per entry
 * and source, the header checked so another CSV is refused. Multi-values are joined by `; `;
 * an address is `street, city, state, postal, CC` with the empty parts left out, so only the
 * trailing ISO code can be told apart; `ids` are `Type, value, CC` groups.
 */
import { countryCode } from '../countries.ts';
import type { Identifier } from '../model.ts';
import { type CslAddress, type CslRecord, cslToLists, splitMulti } from './csl.ts';
import { readCsv } from './csv.ts';
import { CSL_HEADER, type ListReading } from './list-format.ts';
import { ListFormatError } from './list-format-error.ts';

export function parseCslCsv(text: string): ListReading[] {
  const rows = readCsv(text.replace(/^\uFEFF/, ''));
  const header = (rows.next().value as string[] | undefined)?.map((f) => f.trim());
  if (!header || header.join(',') !== CSL_HEADER.join(',')) {
    throw new ListFormatError(`This is not a Consolidated Screening List CSV: its header should be ${CSL_HEADER.join(',')}`);
  }
  const records: CslRecord[] = [];
  let line = 1;
  for (const row of rows) {
    line++;
    if (row.length !== CSL_HEADER.length) {
      throw new ListFormatError(`Record ${line} has ${row.length} fields, not ${CSL_HEADER.length}: the file is malformed or truncated`);
    }
    records.push(toRecord(Object.fromEntries(CSL_HEADER.map((column, i) => [column, row[i]?.trim() ?? ''])), line));
  }
  if (records.length === 0) throw new ListFormatError('The file has no entries');
  return cslToLists(records);
}

function toRecord(f: Record<string, string>, line: number): CslRecord {
  const entryId = f.entity_number || f._id;
  if (!f.source || !f.name || !entryId) throw new ListFormatError(`Record ${line} has no source, no name or no id`);
  const optional = (key: keyof CslRecord, column: string) => (f[column] ? { [key]: f[column] } : {});
  return {
    entryId,
    source: f.source,
    name: f.name,
    programs: splitMulti(f.programs),
    addresses: splitMulti(f.addresses).map(address),
    altNames: splitMulti(f.alt_names),
    citizenships: splitMulti(f.citizenships),
    nationalities: splitMulti(f.nationalities),
    datesOfBirth: splitMulti(f.dates_of_birth),
    placesOfBirth: splitMulti(f.places_of_birth),
    ids: splitMulti(f.ids).map(identifier),
    ...optional('type', 'type'),
    ...optional('title', 'title'),
    ...optional('callSign', 'call_sign'),
    ...optional('vesselFlag', 'vessel_flag'),
    ...optional('startDate', 'start_date'),
    ...optional('endDate', 'end_date'),
    ...optional('federalRegisterNotice', 'federal_register_notice'),
    ...optional('licenseRequirement', 'license_requirement'),
    ...optional('licensePolicy', 'license_policy'),
    ...optional('remarks', 'remarks'),
  } as CslRecord;
}

/**
 * `street, city, state, postal, CC`: the ISO code last, when there is one. Entity List rows join
 * several addresses with `; and`, and only the last ends in a code; the others often end in a
 * country name, which is taken as their country.
 */
function address(text: string): CslAddress {
  const parts = text.replace(/^and\s+/i, '').split(/\s*,\s*/);
  const last = parts.at(-1) as string;
  const country = /^[A-Z]{2}$/.test(last) || countryCode(last) ? last : undefined;
  const street = parts.slice(0, country ? -1 : undefined).join(', ');
  return { ...(street && { street }), ...(country && { country }) };
}

/** `Passport, 836238033, KP`: type, value, and the issuing country when a third part is an ISO code. */
function identifier(group: string): Identifier {
  const parts = group.split(', ');
  const type = (parts[0] as string).trim();
  const country = parts.length >= 3 && /^[A-Z]{2}$/.test(parts.at(-1) ?? '') ? (parts.at(-1) as string) : undefined;
  const value = parts
    .slice(1, country ? -1 : undefined)
    .join(', ')
    .trim();
  return { type, value, ...(country && { country }) };
}
