/**
 * One `<entity>` of OFAC's Enhanced XML as a list entity. Its id is OFAC's ent_num, the id of the
 * legacy files, and names, identifiers, flags and region-only addresses are recorded as the
 * legacy parser (ofac-legacy.ts, ofac-remarks.ts) records them, so that switching between the two
 * formats keeps every entry and its content where the facts agree. What the legacy files hide in
 * Remarks the XML states in fields: low-quality names, dates of birth with their precision and
 * range, nationalities with ISO codes, identity documents with issuer and validity.
 */
import type { DateOfBirth, EntityType, Identifier, ListCode, ListEntity, ListedName, NameKind, PartialDate } from '../model.ts';
import { isoDate, lookup, mapCountries, unique } from './entity-fields.ts';
import { ListFormatError } from './list-format-error.ts';
import { parseDateOfBirth, parseIdentifier } from './ofac-remarks.ts';
import { nodes, text, type XmlNode } from './xml-nodes.ts';

/** What the whole document supplies to each entity: country codes by name, and a tally of what was left out. */
export type EnhancedContext = { list: ListCode; countryOf: (name: string) => string | undefined; dropped: Map<string, number>; withoutPrimary: string[] };

const TYPES: Record<string, EntityType> = { individual: 'person', entity: 'organization', vessel: 'vessel', aircraft: 'aircraft' };

export function enhancedEntity(node: XmlNode, context: EnhancedContext): ListEntity {
  const entryId = text(node['@id']);
  const general = (node.generalInfo ?? {}) as XmlNode;
  if (!entryId) throw new ListFormatError('An entity has no id');
  const type = lookup(TYPES, text(general.entityType)?.toLowerCase() ?? '') ?? 'organization';
  const names = namesOf(node.names, type);
  if (names.length === 0) throw new ListFormatError(`Entity ${entryId} has no name`);
  if (!names.some((n) => n.kind === 'primary')) {
    names[0] = { ...(names[0] as ListedName), kind: 'primary' };
    context.withoutPrimary.push(entryId);
  }

  const facts = readFeatures(nodes((node.features as XmlNode | undefined)?.feature), context);
  const addresses = nodes((node.addresses as XmlNode | undefined)?.address).flatMap((a) => address(a, context) ?? []);
  const documents = nodes((node.identityDocuments as XmlNode | undefined)?.identityDocument).flatMap((d) => identityDocument(d, context) ?? []);
  const listedOn = isoDate(
    nodes((node.sanctionsLists as XmlNode | undefined)?.sanctionsList)
      .flatMap((l) => text(l['@datePublished']) ?? [])
      .sort()[0],
  );
  const title = text(general.title);
  const remarks = text(general.remarks);

  return {
    list: context.list,
    entryId,
    type,
    names,
    ...mapCountries([...addresses.flatMap((a) => a.countryName ?? []), ...facts.nationalities], context.countryOf),
    datesOfBirth: facts.datesOfBirth,
    placesOfBirth: facts.placesOfBirth,
    nationalities: unique(facts.nationalities),
    identifiers: [...documents, ...facts.identifiers],
    programs: unique(nodes((node.sanctionsPrograms as XmlNode | undefined)?.sanctionsProgram).flatMap((p) => text(p) ?? [])),
    linkedTo: unique(nodes((node.relationships as XmlNode | undefined)?.relationship).flatMap((r) => text(r.relatedEntity) ?? [])),
    addresses,
    ...(title && { title }),
    ...(facts.gender && { gender: facts.gender }),
    ...(remarks && { remarks }),
    ...(listedOn && { listedOn }),
  };
}

/**
 * Every translation of every name: the primary name's Latin translation is the entry's name, a
 * translation into another script is the name in its own script, a low-quality name is a weak
 * alias and an f.k.a. a former name. People's names keep OFAC's `LAST, First` with both parts.
 */
function namesOf(names: unknown, type: EntityType): ListedName[] {
  const out: ListedName[] = [];
  for (const name of nodes((names as XmlNode | undefined)?.name)) {
    const kind: NameKind =
      text(name.isPrimary) === 'true'
        ? 'primary'
        : text(name.isLowQuality) === 'true'
          ? 'weak_alias'
          : /^f\.?k\.?a\.?$/i.test(text(name.aliasType) ?? '')
            ? 'former_name'
            : 'strong_alias';
    for (const translation of nodes((name.translations as XmlNode | undefined)?.translation)) {
      const full = text(translation.formattedFullName);
      if (!full || out.some((n) => n.full === full)) continue;
      const script = text(translation.script) ?? 'Latin';
      if (script !== 'Latin') {
        out.push({ full, kind: 'original_script' });
        continue;
      }
      const family = text(translation.formattedLastName);
      const given = text(translation.formattedFirstName);
      out.push(type === 'person' && family && given ? { full, kind, family, given } : { full, kind });
    }
  }
  return out.sort((a, b) => Number(b.kind === 'primary') - Number(a.kind === 'primary'));
}

type Facts = { datesOfBirth: DateOfBirth[]; placesOfBirth: string[]; nationalities: string[]; identifiers: Identifier[]; gender?: 'male' | 'female' };

/** The features screening uses; an identifier-like feature (SWIFT/BIC, MMSI …) is read as OFAC's remarks write it; the rest is tallied as left out. */
function readFeatures(features: XmlNode[], context: EnhancedContext): Facts {
  const facts: Facts = { datesOfBirth: [], placesOfBirth: [], nationalities: [], identifiers: [] };
  for (const feature of features) {
    const type = text(feature.type) ?? '';
    const value = text(feature.value);
    const gender = value?.toLowerCase();
    if (type === 'Birthdate') {
      const born = periodDate(feature.valueDate as XmlNode | undefined) ?? (value ? parseDateOfBirth(value) : undefined);
      if (born) facts.datesOfBirth.push(born);
      else context.dropped.set('Birthdate (unreadable)', (context.dropped.get('Birthdate (unreadable)') ?? 0) + 1);
    } else if (type === 'Place of Birth' && value) facts.placesOfBirth.push(value);
    else if ((type === 'Nationality Country' || type === 'Citizenship Country') && value) facts.nationalities.push(value);
    else if (type === 'Gender' && (gender === 'male' || gender === 'female')) facts.gender = gender;
    else if ((type === 'Nationality of Registration' || type === 'Vessel Flag') && value) {
      const country = context.countryOf(value);
      facts.identifiers.push({ type: 'vessel_flag', value, ...(country && { country }) });
    } else if (type === 'Vessel Call Sign' && value) facts.identifiers.push({ type: 'call_sign', value });
    else {
      const identifier = value ? parseIdentifier(`${type} ${value}`) : undefined;
      if (identifier) facts.identifiers.push(identifier);
      else context.dropped.set(type, (context.dropped.get(type) ?? 0) + 1);
    }
  }
  return facts;
}

/**
 * A date period as a date of birth at the precision it spans: one day, a whole month or a whole
 * year, or a range of them (`until`); approximate is circa.
 */
export function periodDate(period: XmlNode | undefined): DateOfBirth | undefined {
  const begin = isoDate(text(period?.fromDateBegin));
  const end = isoDate(text(period?.toDateEnd) ?? text(period?.fromDateEnd)) ?? begin;
  if (!begin?.day || !end?.day || !begin.month || !end.month) return undefined;
  const circa = text(period?.isApproximate) === 'true';
  const wholeYears = begin.month === 1 && begin.day === 1 && end.month === 12 && end.day === 31;
  const wholeMonths = begin.day === 1 && end.day === new Date(Date.UTC(end.year, end.month, 0)).getUTCDate();
  const [from, until]: PartialDate[] = wholeYears
    ? [{ year: begin.year }, { year: end.year }]
    : wholeMonths
      ? [
          { year: begin.year, month: begin.month },
          { year: end.year, month: end.month },
        ]
      : [begin, end];
  const same = JSON.stringify(from) === JSON.stringify(until);
  return { ...(from as PartialDate), ...(!same && { until }), ...(circa && { circa }) };
}

/**
 * ADDRESS1–3 are the street, then `City, State Postal` as OFAC's legacy files write it; a region
 * without a country is written `Region: X` in the country, as those files do.
 */
function address(node: XmlNode, context: EnhancedContext): ListEntity['addresses'][number] | undefined {
  const translations = (node.translations ?? {}) as XmlNode;
  const translation = nodes(translations.translation).find((t) => text(t.isPrimary) === 'true') ?? nodes(translations.translation)[0];
  const parts = new Map<string, string[]>();
  for (const part of nodes((translation?.addressParts as XmlNode | undefined)?.addressPart)) {
    const kind = text(part.type) ?? '';
    const value = text(part.value);
    if (value) parts.set(kind, [...(parts.get(kind) ?? []), value]);
  }
  const join = (kinds: string[]) => kinds.flatMap((k) => parts.get(k) ?? []).join(', ');
  const street = join(['ADDRESS1', 'ADDRESS2', 'ADDRESS3']);
  let countryName = text(node.country) ?? text(translations.country);
  const region = join(['REGION']);
  const cityState = [join(['CITY', 'STATE/PROVINCE']), countryName ? region : ''].filter(Boolean).join(', ');
  const cityStatePostal = [cityState, join(['POSTAL CODE'])].filter(Boolean).join(' ');
  if (!countryName && region) countryName = `Region: ${region}`;
  const country = countryName && context.countryOf(countryName);
  if (!street && !cityStatePostal && !countryName) return undefined;
  return { ...(street && { street }), ...(cityStatePostal && { cityStatePostal }), ...(country && { country }), ...(countryName && { countryName }) };
}

/** A document as OFAC's remarks would write it ("Passport A123"), with its issuing country and what is known of its validity. */
function identityDocument(node: XmlNode, context: EnhancedContext): Identifier | undefined {
  const label = text(node.type);
  const number = text(node.documentNumber);
  if (!label || !number) return undefined;
  const read = parseIdentifier(`${label} ${number}`) ?? { type: label, value: number };
  const issuer = text(node.issuingCountry);
  const country = read.country ?? (issuer && context.countryOf(issuer));
  const day = (period: unknown) => text((period as XmlNode | undefined)?.fromDateBegin);
  const note = [
    read.note,
    issuer && !country && `issued by ${issuer}`,
    text(node.issuingAuthority),
    day(node.issueDate) && `issued ${day(node.issueDate)}`,
    day(node.expirationDate) && `expires ${day(node.expirationDate)}`,
    text(node.isValid) === 'false' && 'not valid',
    text(node.comments),
  ]
    .filter(Boolean)
    .join('; ');
  return { type: read.type, value: read.value, ...(country && { country }), ...(note && { note }) };
}
