/**
 * OFAC's legacy CSV files (SDN and the non-SDN consolidated list share the layout, see SOURCES.md
 * §1): the main file, and optionally addresses, aliases and remark overflow, joined on ent_num.
 * Quirks handled: no header, `-0-` nulls (often with a trailing space), the Ctrl-Z at the end,
 * `LAST, First` names, programs joined by `] [`, entities typed `-0-`, weak a.k.a.s and facts
 * inside Remarks, and side files newer than the main file (orphans are dropped and counted).
 */
import { countryCode } from '../countries.ts';
import type { EntityType, ListCode, ListEntity, ListedName, NameKind } from '../model.ts';
import { readCsv } from './csv.ts';
import { mapCountries, unique } from './entity-fields.ts';
import { ListFormatError } from './list-format-error.ts';
import { parseRemarks } from './ofac-remarks.ts';

export type OfacFiles = { main: string; addresses?: string; aliases?: string; comments?: string };
export type OfacParse = { entities: ListEntity[]; orphans: { addresses: number; aliases: number; comments: number } };

const TYPES: Record<string, EntityType> = { individual: 'person', vessel: 'vessel', aircraft: 'aircraft' };
const ALIAS_KINDS: Record<string, NameKind> = { aka: 'strong_alias', nka: 'strong_alias', fka: 'former_name' };

/** A field's value, or undefined for OFAC's null `-0-`. */
const value = (field: string | undefined) => {
  const trimmed = field?.trim();
  return trimmed === undefined || trimmed === '' || trimmed === '-0-' ? undefined : trimmed;
};

export function parseOfacLegacy(list: ListCode, files: OfacFiles): OfacParse {
  const rows = [...readRows(files.main, 12, 'main')];
  if (rows.length === 0) throw new ListFormatError('The main file has no entries');
  const overflow = groupBy(files.comments ? readRows(files.comments, 2, 'comments') : [], 0);
  const addresses = groupBy(files.addresses ? readRows(files.addresses, 6, 'addresses') : [], 0);
  const aliases = groupBy(files.aliases ? readRows(files.aliases, 5, 'aliases') : [], 0);

  const entities = rows.map((row) => toEntity(list, row, overflow, addresses, aliases));
  const known = new Set(entities.map((e) => e.entryId));
  const orphaned = (groups: Map<string, string[][]>) => [...groups.keys()].filter((id) => !known.has(id)).length;
  return { entities, orphans: { addresses: orphaned(addresses), aliases: orphaned(aliases), comments: orphaned(overflow) } };
}

function toEntity(
  list: ListCode,
  row: string[],
  overflow: Map<string, string[][]>,
  addressRows: Map<string, string[][]>,
  aliasRows: Map<string, string[][]>,
): ListEntity {
  const [entNum, name, type, program, title, callSign, , , , vesselFlag] = row;
  const entryId = value(entNum) as string;
  const entityType = TYPES[value(type)?.toLowerCase() ?? ''] ?? 'organization';
  // Remarks over 1,000 characters continue, mid-word, in the comments file.
  const remarks = [value(row[11]), ...(overflow.get(entryId) ?? []).map((r) => r[1] ?? '')].join('') || undefined;
  const facts = parseRemarks(remarks);

  const names: ListedName[] = [splitName(value(name) as string, 'primary', entityType)];
  for (const alias of aliasRows.get(entryId) ?? []) {
    const aliasName = value(alias[3]);
    if (aliasName) names.push(splitName(aliasName, ALIAS_KINDS[value(alias[2])?.toLowerCase() ?? ''] ?? 'strong_alias', entityType));
  }
  for (const weak of facts.weakAliases) names.push(splitName(weak, 'weak_alias', entityType));

  const addresses = (addressRows.get(entryId) ?? []).map((a) => {
    const countryName = value(a[4]);
    const country = countryName ? countryCode(countryName) : undefined;
    return {
      ...(value(a[2]) && { street: value(a[2]) }),
      ...(value(a[3]) && { cityStatePostal: value(a[3]) }),
      ...(country && { country }),
      ...(countryName && { countryName }),
    };
  });

  const countryNames = [...addresses.map((a) => a.countryName), ...facts.nationalities, ...facts.citizenships].filter((n): n is string => n !== undefined);
  const { countries, unmappedCountries } = mapCountries(countryNames);

  const identifiers = [...facts.identifiers];
  if (value(callSign)) identifiers.push({ type: 'call_sign', value: value(callSign) as string });
  for (const flag of unique([value(vesselFlag), ...facts.flagStates].filter((f): f is string => f !== undefined))) {
    const country = countryCode(flag);
    identifiers.push({ type: 'vessel_flag', value: flag, ...(country && { country }) });
  }

  return {
    list,
    entryId,
    type: entityType,
    names,
    countries,
    unmappedCountries,
    datesOfBirth: facts.datesOfBirth,
    placesOfBirth: facts.placesOfBirth,
    nationalities: unique([...facts.nationalities, ...facts.citizenships]),
    identifiers,
    programs: splitPrograms(value(program)),
    linkedTo: facts.linkedTo,
    addresses,
    ...(value(title) && { title: value(title) }),
    ...(facts.gender && { gender: facts.gender }),
    ...(remarks && { remarks }),
  };
}

/** People are listed `LAST, First Middle`; other names are kept whole. */
function splitName(full: string, kind: NameKind, type: EntityType): ListedName {
  const comma = full.indexOf(', ');
  if (type !== 'person' || comma < 0) return { full, kind };
  return { full, kind, family: full.slice(0, comma).trim(), given: full.slice(comma + 2).trim() };
}

/** `IRAN] [SDGT] [IRGC` (the outer brackets are missing) → ['IRAN', 'SDGT', 'IRGC']. */
function splitPrograms(field: string | undefined): string[] {
  if (!field) return [];
  return field
    .split('] [')
    .map((p) => p.replace(/^\[|\]$/g, '').trim())
    .filter(Boolean);
}

function* readRows(text: string, columns: number, file: string): Generator<string[]> {
  let line = 0;
  for (const row of readCsv(text)) {
    line++;
    if (row.length !== columns) {
      throw new ListFormatError(`The ${file} file's record ${line} has ${row.length} fields, not ${columns}: the file is malformed or truncated`);
    }
    if (!/^\d+$/.test(row[0]?.trim() ?? '')) throw new ListFormatError(`The ${file} file's record ${line} has no numeric ent_num`);
    yield row;
  }
}

function groupBy(rows: Iterable<string[]>, column: number): Map<string, string[][]> {
  const groups = new Map<string, string[][]>();
  for (const row of rows) {
    const key = (row[column] as string).trim();
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}
