/**
 * The UK FCDO Sanctions List, summary export as an OpenDocument spreadsheet (SOURCES.md §4): one
 * row per designation with its Unique ID, name, regime, type and date. Columns are found by
 * their header, so a reordered export still reads. Individuals are named "Surname Given
 * Patronymic": the name is kept whole, since the matcher ignores person name order, and the
 * first token is the family name. The export has no aliases, dates of birth or addresses.
 */
import { type EntityType, emptyEntity, type ListEntity, type PartialDate } from '../model.ts';
import type { ListReading } from './list-format.ts';
import { ListFormatError } from './list-format-error.ts';
import { readOdsSheets } from './ods.ts';

const REQUIRED = ['Unique ID', 'Name', 'Regime Name', 'Type', 'Date Designated'] as const;
/** The FCDO's designation types (`Individual`, `Entity`, `Ship`), lower case. */
export const TYPES: Record<string, EntityType> = { individual: 'person', entity: 'organization', ship: 'vessel', aircraft: 'aircraft' };

export function parseUkFcdo(bytes: Uint8Array): ListReading {
  const sheets = readOdsSheets(bytes);
  const sheet = sheets.find((s) => REQUIRED.every((column) => s.rows[0]?.includes(column)));
  if (!sheet) {
    throw new ListFormatError(
      `No sheet of this spreadsheet has the UK Sanctions List header (${REQUIRED.join(', ')}); sheets: ${sheets.map((s) => s.name).join(', ') || 'none'}`,
    );
  }
  const header = sheet.rows[0] as string[];
  const column = (name: string) => header.indexOf(name);
  const at = (row: string[], name: string) => (column(name) >= 0 ? row[column(name)]?.trim() || undefined : undefined);

  const entities: ListEntity[] = [];
  const unknownTypes = new Map<string, number>();
  const unnamed: string[] = [];
  for (const [index, row] of sheet.rows.slice(1).entries()) {
    const line = index + 2;
    const entryId = at(row, 'Unique ID');
    const name = at(row, 'Name')?.replace(/\s+/g, ' ');
    if (!entryId) throw new ListFormatError(`Row ${line} of sheet ${sheet.name} has no Unique ID`);
    // The 2025-08 export has two designations with an empty name: nothing to screen against.
    if (!name) {
      unnamed.push(entryId);
      continue;
    }
    const typeName = at(row, 'Type') ?? '';
    const type = TYPES[typeName.toLowerCase()];
    if (!type) unknownTypes.set(typeName, (unknownTypes.get(typeName) ?? 0) + 1);
    const listedOn = ukDate(at(row, 'Date Designated'));
    const regime = at(row, 'Regime Name');
    const remarks = designationRemarks({ source: at(row, 'Designation source'), sanctions: at(row, 'Sanctions Imposed'), groupId: at(row, 'OFSI Group ID') });
    entities.push(
      emptyEntity({
        list: 'UK_FCDO',
        entryId,
        type: type ?? 'organization',
        names: [type === 'person' ? { full: name, kind: 'primary', family: name.split(' ')[0] as string } : { full: name, kind: 'primary' }],
        programs: regime ? [regime] : [],
        ...(remarks && { remarks }),
        ...(listedOn && { listedOn }),
      }),
    );
  }
  if (entities.length === 0) throw new ListFormatError(`Sheet ${sheet.name} has no designations`);
  const warnings = unnamed.length
    ? [
        `${unnamed.length} ${unnamed.length === 1 ? 'designation has' : 'designations have'} no name and ${unnamed.length === 1 ? 'is' : 'are'} left out: ${unnamed.join(', ')}`,
      ]
    : [];
  warnings.push(
    ...[...unknownTypes].map(
      ([name, count]) => `${count.toLocaleString('en-US')} designations of type "${name}", which Gatehouse does not know, are kept as organizations`,
    ),
  );
  return { list: 'UK_FCDO', entities, warnings };
}

/**
 * The FCDO names its exports after the day they were made (`FCDO_SL_Mon_Aug 11 2025.ods`): that
 * day as YYYY-MM-DD, or undefined for a file named otherwise.
 */
export function publishedFromFileName(fileName: string): string | undefined {
  const m = /([A-Z][a-z]{2}) (\d{1,2}) (\d{4})\.ods$/.exec(fileName);
  const month = m ? MONTHS.indexOf(m[1] as string) + 1 : 0;
  return m && month ? `${m[3]}-${String(month).padStart(2, '0')}-${(m[2] as string).padStart(2, '0')}` : undefined;
}
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** What the FCDO says of a designation besides the list's fields, as both of its exports give it. */
export function designationRemarks(parts: { source?: string | undefined; sanctions?: string | undefined; groupId?: string | undefined }): string {
  return [
    parts.source && `Designation source: ${parts.source}`,
    parts.sanctions && `Sanctions imposed: ${parts.sanctions}`,
    parts.groupId && `OFSI group ID ${parts.groupId}`,
  ]
    .filter(Boolean)
    .join('; ');
}

/** DD-MM-YYYY (or DD/MM/YYYY), as the FCDO writes dates; an ISO date from a typed cell also reads. */
export function ukDate(text: string | undefined): PartialDate | undefined {
  const uk = /^(\d{2})[-/](\d{2})[-/](\d{4})$/.exec(text ?? '');
  if (uk) return { year: Number(uk[3]), month: Number(uk[2]), day: Number(uk[1]) };
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(text ?? '');
  return iso ? { year: Number(iso[1]), month: Number(iso[2]), day: Number(iso[3]) } : undefined;
}
