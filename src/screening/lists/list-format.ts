/**
 * The list formats Gatehouse reads, and how a file is recognised as one of them: by its name
 * where the publisher fixes it (OFAC's legacy files, BIS's dpl.txt, .ods, .ftm.json), otherwise by
 * its first bytes (the UN and OFAC Enhanced root elements, the zip member of OFAC's Enhanced ZIP,
 * the CSL header, the UK list's report line, the CSL JSON keys, a FollowTheMoney entity line).
 * Detection looks only at a file's head so that a folder of unrelated large files costs little to
 * skip.
 */
import path from 'node:path';
import type { ListCode, ListEntity } from '../model.ts';

export type ListFormat =
  | 'ofac-legacy'
  | 'un-sc-xml'
  | 'bis-dpl'
  | 'csl-csv'
  | 'csl-json'
  | 'uk-fcdo-ods'
  | 'uk-fcdo-csv'
  | 'ofac-enhanced-xml'
  | 'opensanctions-ftm';
export const LIST_FORMATS: readonly ListFormat[] = [
  'ofac-legacy',
  'un-sc-xml',
  'bis-dpl',
  'csl-csv',
  'csl-json',
  'uk-fcdo-ods',
  'uk-fcdo-csv',
  'ofac-enhanced-xml',
  'opensanctions-ftm',
];

/** What a format's reader returns for one source: several lists when the source mixes them (CSL). */
export type ListReading = { list: ListCode; entities: ListEntity[]; warnings: string[]; publishedAt?: string };

/** How many leading bytes detection reads. */
export const DETECTION_HEAD_BYTES = 8192;

/** The parts of an OFAC legacy list, by file name (SDN and consolidated names). */
export type OfacRole = 'main' | 'addresses' | 'aliases' | 'comments';
const OFAC_FILES: Record<string, { list: 'OFAC_SDN' | 'OFAC_CONS'; role: OfacRole }> = {
  'sdn.csv': { list: 'OFAC_SDN', role: 'main' },
  'add.csv': { list: 'OFAC_SDN', role: 'addresses' },
  'alt.csv': { list: 'OFAC_SDN', role: 'aliases' },
  'sdn_comments.csv': { list: 'OFAC_SDN', role: 'comments' },
  'cons_prim.csv': { list: 'OFAC_CONS', role: 'main' },
  'cons_add.csv': { list: 'OFAC_CONS', role: 'addresses' },
  'cons_alt.csv': { list: 'OFAC_CONS', role: 'aliases' },
  'cons_comments.csv': { list: 'OFAC_CONS', role: 'comments' },
};

/**
 * An OFAC file's list and part, from its name. A file forced to `ofac-legacy` under another name
 * is taken as a main file, of the consolidated list when its name starts with `cons`.
 */
export function ofacPart(file: string): { list: 'OFAC_SDN' | 'OFAC_CONS'; role: OfacRole } {
  const name = path.basename(file).toLowerCase();
  return OFAC_FILES[name] ?? { list: name.startsWith('cons') ? 'OFAC_CONS' : 'OFAC_SDN', role: 'main' };
}

// biome-ignore format: a word table, packed by hand
export const CSL_HEADER = [
  '_id', 'source', 'entity_number', 'type', 'programs', 'name', 'title', 'addresses', 'federal_register_notice',
  'start_date', 'end_date', 'standard_order', 'license_requirement', 'license_policy', 'call_sign', 'vessel_type',
  'gross_tonnage', 'gross_registered_tonnage', 'vessel_flag', 'vessel_owner', 'remarks', 'source_list_url', 'alt_names',
  'citizenships', 'dates_of_birth', 'nationalities', 'places_of_birth', 'source_information_url', 'ids',
];

const ODS_MIMETYPE = 'application/vnd.oasis.opendocument.spreadsheet';

/** The format of a file from its name and first bytes, or undefined when it is not a list. */
export function detectFormat(file: string, head: Uint8Array): ListFormat | undefined {
  const name = path.basename(file).toLowerCase();
  if (OFAC_FILES[name]) return 'ofac-legacy';
  const text = decodeText(head).replace(/^\uFEFF/, '');
  if (name.endsWith('.ods') || (text.startsWith('PK') && text.includes(ODS_MIMETYPE))) return 'uk-fcdo-ods';
  if (name === 'dpl.txt' || /^"?Name"?\t"?Street_Address"?\t/.test(text)) return 'bis-dpl';
  if (/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<CONSOLIDATED_LIST[\s>]/.test(text)) return 'un-sc-xml';
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  if (
    firstLine
      .split(',')
      .map((f) => f.replace(/^"|"$/g, '').trim())
      .join(',') === CSL_HEADER.join(',')
  )
    return 'csl-csv';
  if (/^\s*\{/.test(text) && /"results"\s*:\s*\[/.test(text) && /"source"\s*:/.test(text)) return 'csl-json';
  if (/^"?Report Date:/.test(firstLine) && /^[^\n]*"?Unique ID"?,[^\n]*"?Name 6"?,/m.test(text)) return 'uk-fcdo-csv';
  if (isOfacEnhanced(name, head, text)) return 'ofac-enhanced-xml';
  if (name.endsWith('.ftm.json') || isFtmLine(firstLine)) return 'opensanctions-ftm';
  return undefined;
}

/** OFAC's Enhanced XML (root `sanctionsData`), or its ZIP: a zip whose first member is `…_ENHANCED.XML`. */
function isOfacEnhanced(name: string, head: Uint8Array, text: string): boolean {
  if (/^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<sanctionsData[\s>]/.test(text)) return true;
  if (!isZip(head) || head.length < 30) return false;
  const nameLength = (head[26] as number) | ((head[27] as number) << 8);
  const member = new TextDecoder('latin1').decode(head.subarray(30, 30 + nameLength));
  return /_ENHANCED\.XML$/i.test(member) || (/_enhanced\.zip$/.test(name) && /\.xml$/i.test(member));
}

/**
 * A FollowTheMoney line: an entity (`{"id":…,"schema":"Person","properties":{…}}`) or a delta
 * operation (`{"op":"ADD","entity":{…}}`). Only the head of a long line may have been read.
 */
const isFtmLine = (line: string) =>
  /^\s*\{\s*"op"\s*:\s*"(?:ADD|MOD|DEL)"/.test(line) ||
  (/^\s*\{\s*"(?:id|caption|schema)"\s*:/.test(line) && /"schema"\s*:\s*"[A-Z]\w*"/.test(line) && /"properties"\s*:\s*\{/.test(line));

/** A zip archive: a local file header first. */
export const isZip = (bytes: Uint8Array) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/**
 * A list file's text: UTF-8 when it is valid UTF-8 (a byte-order mark is dropped), otherwise
 * Windows-1252, which OFAC's spec names for its legacy files.
 */
export function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}
