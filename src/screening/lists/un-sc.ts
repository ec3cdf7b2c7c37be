/**
 * The UN Security Council Consolidated List XML (SOURCES.md §2): `<INDIVIDUAL>` and `<ENTITY>`
 * records under `<CONSOLIDATED_LIST dateGenerated=…>`. Name parts are kept in the order the UN
 * gives them (they are not given/family); the name in its own script is a name of its own;
 * alias quality says how much to trust an alias (Low is the UN's weak alias); dates of birth keep
 * their precision (exact, year, approximate, a range of years). The file is checked to be well
 * formed first (xml-nodes.ts).
 */
import { XMLParser } from 'fast-xml-parser';
import { countryCode } from '../countries.ts';
import type { DateOfBirth, EntityType, Identifier, ListEntity, ListedName, NameKind, PartialDate } from '../model.ts';
import { isoDate, mapCountries, unique } from './entity-fields.ts';
import { ListFormatError } from './list-format-error.ts';
import { assertWellFormed, type XmlNode as Node, nodes, text } from './xml-nodes.ts';

/** Elements that may repeat; everything else is read as a single value. */
const REPEATED = new Set([
  'INDIVIDUAL',
  'ENTITY',
  'INDIVIDUAL_ALIAS',
  'ENTITY_ALIAS',
  'INDIVIDUAL_DATE_OF_BIRTH',
  'INDIVIDUAL_PLACE_OF_BIRTH',
  'INDIVIDUAL_ADDRESS',
  'ENTITY_ADDRESS',
  'INDIVIDUAL_DOCUMENT',
  'NATIONALITY',
  'TITLE',
  'DESIGNATION',
  'VALUE',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => REPEATED.has(name),
});

export type UnParse = { entities: ListEntity[]; publishedAt?: string };

export function parseUnSc(xml: string): UnParse {
  assertWellFormed(xml);
  const root = (parser.parse(xml) as Node).CONSOLIDATED_LIST as Node | undefined;
  if (!root || typeof root !== 'object') throw new ListFormatError('This is not a UN Security Council list: its root element is not CONSOLIDATED_LIST');
  const people = nodes((root.INDIVIDUALS as Node | undefined)?.INDIVIDUAL);
  const organizations = nodes((root.ENTITIES as Node | undefined)?.ENTITY);
  const entities = [...people.map((n) => toEntity(n, 'person')), ...organizations.map((n) => toEntity(n, 'organization'))];
  if (entities.length === 0) throw new ListFormatError('The list has no individuals and no entities');
  const generated = /^\d{4}-\d{2}-\d{2}/.exec(text(root['@dateGenerated']) ?? '')?.[0];
  return { entities, ...(generated && { publishedAt: generated }) };
}

function toEntity(node: Node, type: EntityType): ListEntity {
  const entryId = text(node.REFERENCE_NUMBER) ?? text(node.DATAID);
  const primary = joinParts(type === 'person' ? [node.FIRST_NAME, node.SECOND_NAME, node.THIRD_NAME, node.FOURTH_NAME] : [node.FIRST_NAME]);
  if (!entryId || !primary)
    throw new ListFormatError(`An ${type === 'person' ? 'INDIVIDUAL' : 'ENTITY'} (DATAID ${text(node.DATAID) ?? '?'}) has no reference number or no name`);

  const names: ListedName[] = [{ full: primary, kind: 'primary' }];
  const originalScript = text(node.NAME_ORIGINAL_SCRIPT);
  if (originalScript) names.push({ full: originalScript, kind: 'original_script' });
  const datesOfBirth = nodes(node.INDIVIDUAL_DATE_OF_BIRTH).flatMap((d) => dateOfBirth(d) ?? []);
  for (const alias of nodes(type === 'person' ? node.INDIVIDUAL_ALIAS : node.ENTITY_ALIAS)) {
    const full = text(alias.ALIAS_NAME);
    if (full && !names.some((n) => n.full === full)) names.push({ full, kind: aliasKind(text(alias.QUALITY)) });
    // Some aliases carry the date of birth used with them.
    const aliasBorn = isoDate(text(alias.DATE_OF_BIRTH));
    if (aliasBorn && !datesOfBirth.some((d) => sameDate(d, aliasBorn))) datesOfBirth.push(aliasBorn);
  }

  const nationalities = values(node.NATIONALITY).filter((n) => n.toLowerCase() !== 'na');
  const addresses = nodes(type === 'person' ? node.INDIVIDUAL_ADDRESS : node.ENTITY_ADDRESS).flatMap((a) => address(a) ?? []);
  const countryNames = [...addresses.flatMap((a) => a.countryName ?? []), ...nationalities];
  const title = [...values(node.TITLE), ...values(node.DESIGNATION)].join('; ');
  const gender = text(node.GENDER)?.toLowerCase();
  const remarks = text(node.COMMENTS1);
  const listedOn = isoDate(text(node.LISTED_ON));

  return {
    list: 'UN_SC',
    entryId,
    type,
    names,
    ...mapCountries(countryNames),
    datesOfBirth,
    placesOfBirth: nodes(node.INDIVIDUAL_PLACE_OF_BIRTH).flatMap((p) => joinParts([p.CITY, p.STATE_PROVINCE, p.COUNTRY], ', ') ?? []),
    nationalities,
    identifiers: nodes(node.INDIVIDUAL_DOCUMENT).flatMap((d) => identifier(d) ?? []),
    programs: unique([text(node.UN_LIST_TYPE)].flatMap((p) => p ?? [])),
    linkedTo: [],
    addresses,
    ...(title && { title }),
    ...((gender === 'male' || gender === 'female') && { gender }),
    ...(remarks && { remarks }),
    ...(listedOn && { listedOn }),
  };
}

/** Individuals' QUALITY is Good / Low (or empty); entities' is a.k.a. / f.k.a. */
function aliasKind(quality: string | undefined): NameKind {
  const q = quality?.toLowerCase();
  if (q === 'low') return 'weak_alias';
  if (q === 'f.k.a.' || q === 'fka') return 'former_name';
  return 'strong_alias';
}

function dateOfBirth(node: Node): DateOfBirth | undefined {
  const kind = text(node.TYPE_OF_DATE)?.toUpperCase();
  const from = year(node.FROM_YEAR);
  const to = year(node.TO_YEAR);
  if (kind === 'BETWEEN' && from !== undefined && to !== undefined) return { year: from, until: { year: to } };
  const date = isoDate(text(node.DATE)) ?? (year(node.YEAR) !== undefined ? { year: year(node.YEAR) as number } : undefined);
  if (!date) return undefined;
  return kind === 'APPROXIMATELY' ? { ...date, circa: true } : date;
}

function identifier(node: Node): Identifier | undefined {
  const value = text(node.NUMBER);
  const type = text(node.TYPE_OF_DOCUMENT) ?? text(node.TYPE_OF_DOCUMENT2);
  if (!value || !type) return undefined;
  const issuer = text(node.ISSUING_COUNTRY) ?? text(node.COUNTRY_OF_ISSUE);
  const country = issuer && countryCode(issuer);
  const note = [
    text(node.TYPE_OF_DOCUMENT2) !== type && text(node.TYPE_OF_DOCUMENT2),
    issuer && !country && `issued by ${issuer}`,
    text(node.DATE_OF_ISSUE) && `issued ${text(node.DATE_OF_ISSUE)}`,
    text(node.NOTE),
  ]
    .filter(Boolean)
    .join('; ');
  return { type, value, ...(country && { country }), ...(note && { note }) };
}

function address(node: Node): ListEntity['addresses'][number] | undefined {
  const street = text(node.STREET);
  const cityStatePostal = joinParts([node.CITY, node.STATE_PROVINCE, node.ZIP_CODE], ', ');
  const countryName = text(node.COUNTRY);
  const country = countryName && countryCode(countryName);
  if (!street && !cityStatePostal && !countryName) return undefined;
  return { ...(street && { street }), ...(cityStatePostal && { cityStatePostal }), ...(country && { country }), ...(countryName && { countryName }) };
}

function year(node: unknown): number | undefined {
  const value = text(node);
  return value && /^\d{4}$/.test(value) ? Number(value) : undefined;
}

const sameDate = (a: PartialDate, b: PartialDate) => a.year === b.year && a.month === b.month && a.day === b.day;

/** The texts of `<X><VALUE>…</VALUE>…</X>` repeated elements. */
function values(node: unknown): string[] {
  return nodes(node).flatMap((n) => (Array.isArray(n.VALUE) ? n.VALUE : [n.VALUE]).flatMap((v) => text(v) ?? []));
}

function joinParts(parts: unknown[], separator = ' '): string | undefined {
  return parts.flatMap((p) => text(p) ?? []).join(separator) || undefined;
}
