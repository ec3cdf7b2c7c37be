/**
 * The BIS Denied Persons List text file (SOURCES.md §3): tab-delimited, every field quoted, one
 * row per address and order. Rows are grouped into one entity per name. The list has no ids of
 * its own, so the name, trimmed and with its spaces collapsed, is the entry id: stable from one
 * version to the next, which is what a diff needs. It also does not say whether a party is a
 * person or a company; a legal form in the name ("LTD", "INC", …) makes it an organization.
 */
import { emptyEntity, type ListEntity, type PartialDate } from '../model.ts';
import { readCsv } from './csv.ts';
import { ListFormatError } from './list-format-error.ts';

const HEADER = [
  'Name',
  'Street_Address',
  'City',
  'State',
  'Country',
  'Postal_Code',
  'Effective_Date',
  'Expiration_Date',
  'Standard_Order',
  'Last_Update',
  'Action',
  'FR_Citation',
];
const LEGAL_FORM =
  /\b(LTD|LIMITED|INC|INCORPORATED|LLC|L\.L\.C|CORP|CORPORATION|CO|COMPANY|GMBH|AG|S\.?A|S\.?R\.?L|B\.?V|PLC|PTE|PVT|FZE|LLP|LP|ENTERPRISES?|INDUSTR(Y|IES)|TRADING|INTERNATIONAL|GROUP|ELECTRONICS|TECHNOLOG(Y|IES))\b\.?/i;

export function parseBisDpl(text: string): ListEntity[] {
  const rows = readCsv(text, '\t');
  const header = rows.next().value;
  if (!header || HEADER.some((name, i) => header[i]?.trim() !== name)) {
    throw new ListFormatError(`This is not a Denied Persons List file: its header should be ${HEADER.join(', ')}`);
  }
  const byName = new Map<string, ListEntity>();
  let line = 1;
  for (const row of rows) {
    line++;
    if (row.length !== HEADER.length) {
      throw new ListFormatError(`Record ${line} has ${row.length} fields, not ${HEADER.length}: the file is malformed or truncated`);
    }
    const [name, street, city, state, country, postal, effective, expiration, standardOrder, , action, citation] = row.map((f) => f.trim());
    const full = (name as string).replace(/\s+/g, ' ');
    if (!full) throw new ListFormatError(`Record ${line} has no name`);
    const entity = byName.get(full) ?? newEntity(full);
    byName.set(full, entity);

    const countryCode = /^[A-Z]{2}$/.test(country ?? '') ? (country as string) : undefined;
    entity.addresses.push({
      ...(street && { street }),
      ...([city, state, postal].some(Boolean) && { cityStatePostal: [city, state, postal].filter(Boolean).join(', ') }),
      ...(countryCode && { country: countryCode }),
    });
    if (countryCode && !entity.countries.includes(countryCode)) entity.countries.push(countryCode);
    const listed = usDate(effective);
    if (listed && (!entity.listedOn || compare(listed, entity.listedOn) < 0)) entity.listedOn = listed;
    const order = [
      `order effective ${effective}`,
      expiration && `expires ${expiration}`,
      standardOrder === 'Y' ? 'standard order' : 'non-standard order',
      action,
      citation,
    ]
      .filter(Boolean)
      .join('; ');
    entity.remarks = entity.remarks ? `${entity.remarks} | ${order}` : order;
  }
  if (byName.size === 0) throw new ListFormatError('The file has no entries');
  return [...byName.values()];
}

function newEntity(full: string): ListEntity {
  return emptyEntity({
    list: 'BIS_DPL',
    entryId: full,
    type: looksLikeOrganization(full) ? 'organization' : 'person',
    names: [{ full, kind: 'primary' }],
    programs: ['EAR-DENIED'],
  });
}

/** For lists that do not type their parties: a legal form in the name ("LTD", "INC", …) makes it an organization. */
export const looksLikeOrganization = (name: string): boolean => LEGAL_FORM.test(name);

/** MM/DD/YYYY, as BIS writes its dates. */
function usDate(text: string | undefined): PartialDate | undefined {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text ?? '');
  return m ? { year: Number(m[3]), month: Number(m[1]), day: Number(m[2]) } : undefined;
}

const compare = (a: PartialDate, b: PartialDate) => a.year - b.year || (a.month ?? 0) - (b.month ?? 0) || (a.day ?? 0) - (b.day ?? 0);
