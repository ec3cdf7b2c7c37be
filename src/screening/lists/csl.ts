/**
 * The trade.gov Consolidated Screening List (SOURCES.md §6, §9), whatever its file form: the CSV
 * and JSON readers turn rows into `CslRecord`s, and this module turns records into entities, one
 * list per source (see csl-sources.ts). Rows that repeat an entry id within a list (the derived
 * Entity List file has 66) are merged into one entity, since an entry id names one entry.
 */
import { countryCode } from '../countries.ts';
import type { EntityType, Identifier, ListCode, ListEntity, ListedName, PartialDate } from '../model.ts';
import { looksLikeOrganization } from './bis-dpl.ts';
import { cslSource } from './csl-sources.ts';
import { isoDate, mapCountries, unique } from './entity-fields.ts';
import type { ListReading } from './list-format.ts';
import { parseDateOfBirth } from './ofac-remarks.ts';

export type CslAddress = { street?: string; cityStatePostal?: string; country?: string };
export type CslRecord = {
  /** `entity_number` (OFAC's ent_num) when present, else `_id`. */
  entryId: string;
  source: string;
  type?: string;
  programs: string[];
  name: string;
  title?: string;
  addresses: CslAddress[];
  altNames: string[];
  citizenships: string[];
  nationalities: string[];
  datesOfBirth: string[];
  placesOfBirth: string[];
  ids: Identifier[];
  callSign?: string;
  vesselFlag?: string;
  startDate?: string;
  endDate?: string;
  federalRegisterNotice?: string;
  licenseRequirement?: string;
  licensePolicy?: string;
  remarks?: string;
};

const TYPES: Record<string, EntityType> = { individual: 'person', entity: 'organization', vessel: 'vessel', aircraft: 'aircraft' };
/** Lists of people and companies alike that do not say which; the others list organizations. */
const MIXED_LISTS = new Set<ListCode>(['BIS_DPL', 'DDTC_DEBARRED']);
const SUCCESSOR_CLAUSE = /;?\s*and any successor,? sub-unit,? or subsidiary thereof\.?$/i;

export function cslToLists(records: Iterable<CslRecord>): ListReading[] {
  const lists = new Map<ListCode, { byId: Map<string, ListEntity>; merged: number; unknownSource?: string }>();
  for (const record of records) {
    const source = cslSource(record.source);
    const list = lists.get(source.list) ?? { byId: new Map(), merged: 0, ...(!source.known && { unknownSource: record.source }) };
    lists.set(source.list, list);
    const entity = toEntity(source.list, source.subList, record);
    const earlier = list.byId.get(entity.entryId);
    if (earlier) {
      merge(earlier, entity);
      list.merged++;
    } else list.byId.set(entity.entryId, entity);
  }
  return [...lists].map(([code, { byId, merged, unknownSource }]) => {
    const warnings: string[] = [];
    if (unknownSource) warnings.push(`The CSL source "${unknownSource}" is not one Gatehouse knows; its entries are kept under the list code ${code}`);
    if (merged)
      warnings.push(
        `${merged.toLocaleString('en-US')} ${merged === 1 ? 'row repeats' : 'rows repeat'} an entry id already read in ${code}; merged into that entry`,
      );
    return { list: code, entities: [...byId.values()], warnings };
  });
}

function toEntity(list: ListCode, subList: string | undefined, r: CslRecord): ListEntity {
  const full = r.name.replace(SUCCESSOR_CLAUSE, '').trim();
  const type = TYPES[r.type?.toLowerCase() ?? ''] ?? (MIXED_LISTS.has(list) && !looksLikeOrganization(full) ? 'person' : 'organization');
  const names: ListedName[] = [personName(full, 'primary', type)];
  for (const alias of r.altNames.map((a) => a.replace(/^and\s+/i, '').trim())) {
    if (alias && !names.some((n) => n.full === alias)) names.push(personName(alias, 'strong_alias', type));
  }
  const addresses = r.addresses.map((a) => {
    const country = a.country && toCountryCode(a.country);
    return {
      ...(a.street && { street: a.street }),
      ...(a.cityStatePostal && { cityStatePostal: a.cityStatePostal }),
      ...(country && { country }),
      ...(a.country && a.country !== country && { countryName: a.country }),
    };
  });
  const countryNames = [...r.addresses.flatMap((a) => a.country ?? []), ...r.citizenships, ...r.nationalities];

  const identifiers: Identifier[] = [];
  const statements: string[] = [];
  let gender: 'male' | 'female' | undefined;
  for (const id of r.ids) {
    if (/^gender$/i.test(id.type)) gender = /^f/i.test(id.value) ? 'female' : /^m/i.test(id.value) ? 'male' : gender;
    // "Secondary sanctions risk:", "Executive Order 13662 Directive Determination -": statements, not identifiers.
    else if (/[:-]$/.test(id.type)) statements.push(`${id.type} ${id.value}`);
    else identifiers.push(id);
  }
  if (r.callSign) identifiers.push({ type: 'call_sign', value: r.callSign });
  if (r.vesselFlag)
    identifiers.push({ type: 'vessel_flag', value: r.vesselFlag, ...(toCountryCode(r.vesselFlag) && { country: toCountryCode(r.vesselFlag) }) });

  const remarks = [
    r.remarks,
    r.federalRegisterNotice && `Federal Register: ${r.federalRegisterNotice}`,
    r.endDate && `until ${r.endDate}`,
    r.licenseRequirement && `License requirement: ${r.licenseRequirement}`,
    r.licensePolicy && `License policy: ${r.licensePolicy}`,
    ...statements,
  ]
    .filter(Boolean)
    .join(' | ');
  const listedOn = isoDate(r.startDate);

  return {
    list,
    entryId: r.entryId,
    type,
    names,
    ...mapCountries(countryNames, toCountryCode),
    datesOfBirth: r.datesOfBirth.flatMap((d) => (isoDate(d) ? [isoDate(d) as PartialDate] : (parseDateOfBirth(d) ?? []))),
    placesOfBirth: r.placesOfBirth,
    nationalities: unique([...r.nationalities, ...r.citizenships]),
    identifiers,
    programs: unique([...(subList ? [subList] : []), ...r.programs]),
    linkedTo: [],
    addresses,
    ...(r.title && { title: r.title }),
    ...(gender && { gender }),
    ...(remarks && { remarks }),
    ...(listedOn && { listedOn }),
  };
}

/** OFAC writes people `LAST, First` in the CSL too; other lists write names in reading order. */
function personName(full: string, kind: ListedName['kind'], type: EntityType): ListedName {
  const comma = full.indexOf(', ');
  if (type !== 'person' || comma < 0) return { full, kind };
  return { full, kind, family: full.slice(0, comma), given: full.slice(comma + 2) };
}

function merge(into: ListEntity, other: ListEntity): void {
  for (const name of other.names)
    if (!into.names.some((n) => n.full === name.full)) into.names.push({ ...name, kind: name.kind === 'primary' ? 'strong_alias' : name.kind });
  into.addresses.push(...other.addresses.filter((a) => !into.addresses.some((b) => JSON.stringify(a) === JSON.stringify(b))));
  into.countries = unique([...into.countries, ...other.countries]);
  into.unmappedCountries = unique([...into.unmappedCountries, ...other.unmappedCountries]);
  into.programs = unique([...into.programs, ...other.programs]);
  into.identifiers.push(...other.identifiers.filter((i) => !into.identifiers.some((j) => i.type === j.type && i.value === j.value)));
}

/** A multi-value field: values joined by `; `, empties dropped. */
export function splitMulti(field: string | undefined): string[] {
  return (field ?? '')
    .split(/;\s+/)
    .map((v) => v.trim())
    .filter(Boolean);
}

/** The CSL writes ISO codes in addresses and nationalities; a name is mapped. */
function toCountryCode(value: string): string | undefined {
  return /^[A-Z]{2}$/.test(value) ? value : countryCode(value);
}
