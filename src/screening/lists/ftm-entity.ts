/**
 * One FollowTheMoney entity (Person, Organization, Company, LegalEntity, PublicBody, Vessel,
 * Airplane) as a list entity, with the records that attach to it: its Address entities, the
 * Sanction entities naming it, its Passport and Identification entities, and the names of the
 * entities it is linked to. Property values are lists of strings; countries are ISO codes in lower
 * case (OpenSanctions also uses a few codes of its own, such as `suhh` for the Soviet Union, which
 * are kept as unmapped). The caption is the entity's name; its other names in another script
 * are names in their own script, in Latin letters strong aliases.
 */
import { countryCode } from '../countries.ts';
import { type DateOfBirth, type EntityType, emptyEntity, type Identifier, type ListCode, type ListEntity, type ListedName, type NameKind } from '../model.ts';
import { lookup, unique } from './entity-fields.ts';

export type FtmEntity = { id: string; schema: string; caption?: string; properties: Record<string, unknown>; datasets?: string[]; target?: boolean };

/** What attaches to an entity from other entities of the file. */
export type Attached = { addresses: FtmEntity[]; sanctions: FtmEntity[]; documents: FtmEntity[]; linkedTo: string[] };

export const ENTITY_TYPES: Record<string, EntityType> = {
  Person: 'person',
  Organization: 'organization',
  Company: 'organization',
  LegalEntity: 'organization',
  PublicBody: 'organization',
  Vessel: 'vessel',
  Airplane: 'aircraft',
};

/**
 * Identifier properties, as the type the other parsers record (identifier-types.ts maps them) and
 * what the number is. The named schemes come before the generic properties that often repeat
 * them (an OGRN is also the registrationNumber), so that a number kept once keeps its scheme.
 */
const IDENTIFIERS: Record<string, [type: string, note?: string]> = {
  imoNumber: ['imo'],
  mmsi: ['mmsi'],
  callSign: ['call_sign'],
  ogrnCode: ['registration_number', 'OGRN'],
  okpoCode: ['registration_number', 'OKPO'],
  registrationNumber: ['registration_number'],
  innCode: ['tax_id', 'INN'],
  vatCode: ['tax_id', 'VAT'],
  taxNumber: ['tax_id'],
  leiCode: ['lei'],
  swiftBic: ['swift_bic'],
  passportNumber: ['passport'],
  idNumber: ['national_id'],
  serialNumber: ['aircraft_msn'],
};

const ALIASES: [property: string, kind: NameKind][] = [
  ['name', 'strong_alias'],
  ['alias', 'strong_alias'],
  ['previousName', 'former_name'],
  ['weakAlias', 'weak_alias'],
];
const COUNTRY_PROPERTIES = ['nationality', 'citizenship', 'country', 'birthCountry', 'jurisdiction', 'mainCountry'];

/** A property's values, as strings. */
export const values = (entity: FtmEntity, property: string): string[] => {
  const value = entity.properties[property];
  return (Array.isArray(value) ? value : [])
    .filter((v): v is string => typeof v === 'string')
    .map((v) => v.trim())
    .filter(Boolean);
};

export function ftmToEntity(list: ListCode, entity: FtmEntity, attached: Attached): ListEntity {
  const type = lookup(ENTITY_TYPES, entity.schema) as EntityType;
  const has = (property: string) => values(entity, property);
  const addresses = [...attached.addresses.flatMap((a) => address(a) ?? []), ...has('address').map((street) => ({ street }))];
  const nationalities = unique([...has('nationality'), ...has('citizenship')]).map((code) => ftmCountry(code).name);
  const countries = unique([...COUNTRY_PROPERTIES.flatMap(has), ...attached.addresses.flatMap((a) => values(a, 'country'))]).map(ftmCountry);
  const listedOn = ftmDate(attached.sanctions.flatMap((s) => [...values(s, 'listingDate'), ...values(s, 'startDate')]).sort()[0] ?? '');
  const title = unique([...has('title'), ...has('position')]).join('; ');
  const gender = has('gender')[0]?.toLowerCase();
  const topics = has('topics');
  const remarks = [...has('notes'), ...(topics.length > 0 ? [`OpenSanctions topics: ${topics.join(', ')}`] : [])].join('; ');

  return emptyEntity({
    list,
    entryId: entity.id,
    type,
    names: namesOf(entity),
    countries: unique(countries.flatMap((c) => c.code ?? [])),
    unmappedCountries: unique(countries.flatMap((c) => (c.code ? [] : [c.name]))),
    datesOfBirth: has('birthDate').flatMap((d) => ftmDate(d) ?? []),
    placesOfBirth: has('birthPlace'),
    nationalities,
    identifiers: identifiersOf(entity, attached.documents),
    programs: unique([entity, ...attached.sanctions].flatMap((e) => [...values(e, 'programId'), ...values(e, 'program')])),
    linkedTo: attached.linkedTo,
    addresses,
    ...(title && { title }),
    ...((gender === 'male' || gender === 'female') && { gender }),
    ...(remarks && { remarks }),
    ...(listedOn && { listedOn }),
  });
}

/** The caption first; each other name once (case aside). A person without names is named from their first and last names. */
function namesOf(entity: FtmEntity): ListedName[] {
  const first = values(entity, 'firstName')[0];
  const last = values(entity, 'lastName')[0];
  const built = first && last ? { full: `${first} ${last}`, given: first, family: last } : undefined;
  const primary = entity.caption || values(entity, 'name')[0] || built?.full || entity.id;
  const names: ListedName[] = [built?.full === primary ? { ...built, kind: 'primary' } : { full: primary, kind: 'primary' }];
  for (const [property, kind] of ALIASES) {
    for (const full of values(entity, property)) {
      if (names.some((n) => n.full.toLowerCase() === full.toLowerCase())) continue;
      names.push({ full, kind: kind !== 'weak_alias' && !isLatin(full) ? 'original_script' : kind });
    }
  }
  return names;
}

/** Whether every letter of a name is a Latin one. */
const isLatin = (name: string) => !/(?!\p{Script=Latin})\p{L}/u.test(name);

/** The entity's identifier properties, then its Passport and Identification entities, each number once. */
function identifiersOf(entity: FtmEntity, documents: FtmEntity[]): Identifier[] {
  const found: Identifier[] = Object.entries(IDENTIFIERS).flatMap(([property, [type, note]]) =>
    values(entity, property).map((value) => ({ type, value, ...(note && { note }) })),
  );
  for (const code of values(entity, 'flag')) {
    const flag = ftmCountry(code);
    found.push({ type: 'vessel_flag', value: flag.name, ...(flag.code && { country: flag.code }) });
  }
  for (const document of documents) {
    const issuer = values(document, 'country').map(ftmCountry)[0];
    const note = [
      values(document, 'authority')[0],
      values(document, 'startDate')[0] && `issued ${values(document, 'startDate')[0]}`,
      values(document, 'endDate')[0] && `expires ${values(document, 'endDate')[0]}`,
    ]
      .filter(Boolean)
      .join('; ');
    const type = document.schema === 'Passport' ? 'passport' : (values(document, 'type')[0] ?? 'Identification');
    for (const value of values(document, 'number')) found.push({ type, value, ...(issuer?.code && { country: issuer.code }), ...(note && { note }) });
  }
  return found.filter((i, index) => found.findIndex((j) => j.type === i.type && j.value === i.value) === index);
}

/** An Address entity: its street and `city, region postal code`, or its full text when it is not split. */
function address(entity: FtmEntity): ListEntity['addresses'][number] | undefined {
  const join = (properties: string[], separator: string) => properties.flatMap((p) => values(entity, p)[0] ?? []).join(separator);
  const street = join(['street', 'street2'], ', ') || values(entity, 'full')[0] || join(['remarks'], '');
  const cityStatePostal = [join(['city', 'region'], ', '), join(['postalCode'], '')].filter(Boolean).join(' ');
  const country = values(entity, 'country').map(ftmCountry)[0];
  if (!street && !cityStatePostal && !country) return undefined;
  return {
    ...(street && { street }),
    ...(cityStatePostal && { cityStatePostal }),
    ...(country?.code && { country: country.code }),
    ...(country && { countryName: country.name }),
  };
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

/** An OpenSanctions country code as ISO 3166-1 alpha-2 and its English name; a code of its own keeps the code as its name. */
export function ftmCountry(code: string): { code?: string; name: string } {
  const upper = code.toUpperCase();
  let name: string | undefined;
  try {
    name = /^[A-Z]{2}$/.test(upper) ? regionNames.of(upper) : undefined;
  } catch {
    name = undefined;
  }
  return name && countryCode(name) === upper ? { code: upper, name } : { name: code };
}

/** `YYYY`, `YYYY-MM` or `YYYY-MM-DD` (a time after it is ignored). */
export function ftmDate(value: string): DateOfBirth | undefined {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/.exec(value);
  if (!m) return undefined;
  return { year: Number(m[1]), ...(m[2] && { month: Number(m[2]) }), ...(m[3] && { day: Number(m[3]) }) };
}
