/**
 * The Consolidated Screening List as JSON (`consolidated.json`: `{ "results": [ … ] }`), the same
 * entries as the CSV with structure where the CSV flattens: `alt_names` and `programs` are
 * arrays, `addresses` are objects with `address`, `city`, `state`, `postal_code` and `country`,
 * `ids` are `{ type, number, country }`. A multi-value written as one string is split on `; `
 * as in the CSV.
 */
import type { Identifier } from '../model.ts';
import { type CslAddress, type CslRecord, cslToLists, splitMulti } from './csl.ts';
import type { ListReading } from './list-format.ts';
import { ListFormatError } from './list-format-error.ts';

type Json = Record<string, unknown>;

export function parseCslJson(text: string): ListReading[] {
  let document: unknown;
  try {
    document = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ListFormatError(`The JSON is malformed or truncated: ${(error as Error).message}`);
  }
  const results = (document as Json | null)?.results;
  if (!Array.isArray(results)) throw new ListFormatError('This is not a Consolidated Screening List JSON: it has no "results" array');
  if (results.length === 0) throw new ListFormatError('The file has no entries');
  return cslToLists(results.map((result, i) => toRecord(result as Json, i + 1)));
}

function toRecord(r: Json, position: number): CslRecord {
  const entryId = str(r.entity_number) ?? str(r.id) ?? str(r._id);
  const source = str(r.source);
  const name = str(r.name);
  if (!source || !name || !entryId) throw new ListFormatError(`Result ${position} has no source, no name or no id`);
  const fields: [keyof CslRecord, unknown][] = [
    ['type', r.type],
    ['title', r.title],
    ['callSign', r.call_sign],
    ['vesselFlag', r.vessel_flag],
    ['startDate', r.start_date],
    ['endDate', r.end_date],
    ['federalRegisterNotice', r.federal_register_notice],
    ['licenseRequirement', r.license_requirement],
    ['licensePolicy', r.license_policy],
    ['remarks', r.remarks],
  ];
  return {
    entryId,
    source,
    name,
    programs: list(r.programs),
    addresses: objects(r.addresses).map(address),
    altNames: list(r.alt_names),
    citizenships: list(r.citizenships),
    nationalities: list(r.nationalities),
    datesOfBirth: list(r.dates_of_birth),
    placesOfBirth: list(r.places_of_birth),
    ids: objects(r.ids).flatMap(identifier),
    ...Object.fromEntries(fields.flatMap(([key, value]) => (str(value) ? [[key, str(value)]] : []))),
  };
}

function address(a: Json): CslAddress {
  const street = str(a.address);
  const cityStatePostal = [a.city, a.state, a.postal_code].flatMap((p) => str(p) ?? []).join(', ');
  const country = str(a.country);
  return { ...(street && { street }), ...(cityStatePostal && { cityStatePostal }), ...(country && { country }) };
}

function identifier(i: Json): Identifier[] {
  const type = str(i.type);
  const value = str(i.number) ?? str(i.value);
  const country = str(i.country);
  return type && value ? [{ type, value, ...(country && { country }) }] : [];
}

/** A string, or a JSON number as text (`entity_number` may be either); empty strings are absent. */
function str(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' ? value.trim() || undefined : undefined;
}

function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap((v) => str(v) ?? []);
  return splitMulti(str(value));
}

function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((v): v is Json => v !== null && typeof v === 'object') : [];
}
