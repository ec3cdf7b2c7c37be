/**
 * OFAC's Enhanced XML (SDN_ENHANCED.XML, CONS_ENHANCED.XML; SOURCES.md §13), as published or in
 * the ZIP OFAC also publishes it in: root `sanctionsData` with the publication's date, reference
 * values (countries with ISO codes), and the entities (ofac-enhanced-entity.ts). Which list a file
 * is comes from the publication's filter (`SDN List`, `Consolidated List`), else from its name
 * (SDN_…, CONS_…), else from its entities: all on the SDN List is the SDN publication.
 */

import { XMLParser } from 'fast-xml-parser';
import { unzipSync } from 'fflate';
import { countryCode } from '../countries.ts';
import type { ListCode } from '../model.ts';
import { decodeText, isZip, type ListReading } from './list-format.ts';
import { ListFormatError } from './list-format-error.ts';
import { type EnhancedContext, enhancedEntity } from './ofac-enhanced-entity.ts';
import { assertWellFormed, nodes, text, type XmlNode } from './xml-nodes.ts';

/** Elements that may repeat, by parent and name (`name` repeats under `names`, not under `identityDocument`). */
const REPEATED = new Set([
  'referenceValues.referenceValue',
  'featureTypes.featureType',
  'entities.entity',
  'sanctionsLists.sanctionsList',
  'sanctionsPrograms.sanctionsProgram',
  'sanctionsTypes.sanctionsType',
  'legalAuthorities.legalAuthority',
  'names.name',
  'translations.translation',
  'nameParts.namePart',
  'addresses.address',
  'addressParts.addressPart',
  'features.feature',
  'identityDocuments.identityDocument',
  'relationships.relationship',
  'idFeatures.idFeature',
]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (_name, jpath) => {
    const path = String(jpath);
    return REPEATED.has(path.slice(path.lastIndexOf('.', path.lastIndexOf('.') - 1) + 1));
  },
});

/** How many kinds of left-out features a warning names. */
const NAMED_KINDS = 5;

export function parseOfacEnhanced(bytes: Uint8Array, fileName: string): ListReading {
  const xml = isZip(bytes) ? unzipEnhanced(bytes) : decodeText(bytes);
  assertWellFormed(xml);
  const root = (parser.parse(xml) as XmlNode).sanctionsData as XmlNode | undefined;
  if (!root || typeof root !== 'object') throw new ListFormatError("This is not OFAC's Enhanced XML: its root element is not sanctionsData");

  const isoByName = new Map<string, string>();
  for (const value of nodes((root.referenceValues as XmlNode | undefined)?.referenceValue)) {
    const name = text(value.value);
    const iso = text(value.isoCode);
    if (text(value.type) === 'COUNTRY' && name && iso) isoByName.set(name, iso);
  }
  const entityNodes = nodes((root.entities as XmlNode | undefined)?.entity);
  const context: EnhancedContext = {
    list: listCode(root, entityNodes, fileName),
    countryOf: (name) => isoByName.get(name) ?? countryCode(name),
    dropped: new Map(),
    withoutPrimary: [],
  };
  const entities = entityNodes.map((node) => enhancedEntity(node, context));
  if (entities.length === 0) throw new ListFormatError('The list has no entities');

  const warnings: string[] = [];
  if (context.withoutPrimary.length > 0)
    warnings.push(`${context.withoutPrimary.length} entities have no primary name; their first name is taken: ${context.withoutPrimary.join(', ')}`);
  const dropped = [...context.dropped].sort((a, b) => b[1] - a[1]);
  if (dropped.length > 0) {
    const total = dropped.reduce((sum, [, n]) => sum + n, 0);
    const named = dropped.slice(0, NAMED_KINDS).map(([kind, n]) => `${kind.replace(/[\s:-]+$/, '')} ${n.toLocaleString('en-US')}`);
    warnings.push(
      `${total.toLocaleString('en-US')} features of ${dropped.length} kinds screening does not use were left out (${named.join(', ')}${dropped.length > NAMED_KINDS ? ', …' : ''})`,
    );
  }
  const publishedAt = /^\d{4}-\d{2}-\d{2}/.exec(text((root.publicationInfo as XmlNode | undefined)?.dataAsOf) ?? '')?.[0];
  return { list: context.list, entities, warnings, ...(publishedAt && { publishedAt }) };
}

function listCode(root: XmlNode, entities: XmlNode[], fileName: string): ListCode {
  const filters = (root.publicationInfo as XmlNode | undefined)?.filters as XmlNode | undefined;
  const published = nodes((filters?.sanctionsLists as XmlNode | undefined)?.sanctionsList).flatMap((l) => text(l) ?? []);
  if (published.some((l) => /consolidated/i.test(l))) return 'OFAC_CONS';
  if (published.length > 0 && published.every((l) => l === 'SDN List')) return 'OFAC_SDN';
  if (/^sdn_/i.test(fileName)) return 'OFAC_SDN';
  if (/^cons_/i.test(fileName)) return 'OFAC_CONS';
  const onSdn = (entity: XmlNode) => nodes((entity.sanctionsLists as XmlNode | undefined)?.sanctionsList).some((l) => text(l) === 'SDN List');
  return entities.length > 0 && entities.every(onSdn) ? 'OFAC_SDN' : 'OFAC_CONS';
}

/** The XML inside OFAC's ZIP: its `…_ENHANCED.XML` member, or its only XML member. */
function unzipEnhanced(bytes: Uint8Array): string {
  const members: string[] = [];
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(bytes, {
      filter: (file) => {
        members.push(file.name);
        return /\.xml$/i.test(file.name);
      },
    });
  } catch (error) {
    throw new ListFormatError(`The ZIP cannot be unzipped: ${(error as Error).message}`);
  }
  const xmls = Object.keys(files);
  const name = xmls.find((n) => /_ENHANCED\.XML$/i.test(n)) ?? (xmls.length === 1 ? xmls[0] : undefined);
  if (!name) throw new ListFormatError(`The ZIP holds no …_ENHANCED.XML (it holds ${members.join(', ') || 'nothing'})`);
  return decodeText(files[name] as Uint8Array);
}
