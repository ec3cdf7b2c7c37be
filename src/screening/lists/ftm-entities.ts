/**
 * OpenSanctions FollowTheMoney entities (`entities.ftm.json`, SOURCES.md §12): one JSON entity per
 * line, or lines of OpenSanctions' delta feed, `{"op":"ADD"|"MOD"|"DEL","entity":{…}}`, whose ADD
 * and MOD give an entity (a later line for the same id wins) and whose DEL drops it. A delta holds
 * changes only, so the list read from one holds only what it adds or modifies (a warning says so).
 *
 * Persons, organizations, vessels and aircraft that the dataset targets are the list's entries,
 * under their FtM ids (ftm-entity.ts). Other entities attach to them: Address entities they
 * reference, Sanction entities naming them (programs, listing date), Passport and Identification
 * entities they hold, and links (ownership, family, directorship …) whose other side's name becomes
 * a linked name. Entities the dataset does not target (a sanctioned company's owner) are not
 * entries; they only name links. Which list the file is: ftm-list-code.ts.
 */
import { lookup } from './entity-fields.ts';
import { type Attached, ENTITY_TYPES, type FtmEntity, ftmToEntity, values } from './ftm-entity.ts';
import { chooseDataset, listCodeOfDataset } from './ftm-list-code.ts';
import type { ListReading } from './list-format.ts';
import { ListFormatError } from './list-format-error.ts';

/** Link schemas and their two sides. */
const LINKS: Record<string, [string, string]> = {
  Ownership: ['owner', 'asset'],
  Directorship: ['director', 'organization'],
  Membership: ['member', 'organization'],
  Employment: ['employee', 'employer'],
  Representation: ['agent', 'client'],
  Family: ['person', 'relative'],
  Associate: ['person', 'associate'],
  Succession: ['predecessor', 'successor'],
  UnknownLink: ['subject', 'object'],
};
const ATTACHED_SCHEMAS = new Set(['Address', 'Sanction', 'Passport', 'Identification', ...Object.keys(LINKS)]);

export function parseFtmEntities(text: string, file: { name: string; folder: string }): ListReading {
  const { entities, deleted, delta } = readLines(text);
  const attached = new Map<string, Attached>();
  const attach = (id: string) => attached.get(id) ?? (attached.set(id, { addresses: [], sanctions: [], documents: [], linkedTo: [] }).get(id) as Attached);
  const skipped = new Map<string, number>();
  const targets: FtmEntity[] = [];
  let notTargets = 0;
  let missingAddresses = 0;

  for (const entity of entities.values()) {
    const link = lookup(LINKS, entity.schema);
    if (lookup(ENTITY_TYPES, entity.schema)) {
      if (entity.target === false) notTargets++;
      else targets.push(entity);
    } else if (entity.schema === 'Sanction') for (const id of values(entity, 'entity')) attach(id).sanctions.push(entity);
    else if (entity.schema === 'Passport' || entity.schema === 'Identification') for (const id of values(entity, 'holder')) attach(id).documents.push(entity);
    else if (link) {
      const [one, other] = link;
      for (const a of values(entity, one))
        for (const b of values(entity, other)) {
          const [nameA, nameB] = [captionOf(entities.get(a)), captionOf(entities.get(b))];
          if (nameB) attach(a).linkedTo.push(nameB);
          if (nameA) attach(b).linkedTo.push(nameA);
        }
    } else if (!ATTACHED_SCHEMAS.has(entity.schema)) skipped.set(entity.schema, (skipped.get(entity.schema) ?? 0) + 1);
  }
  for (const entity of targets) {
    for (const id of values(entity, 'addressEntity')) {
      const address = entities.get(id);
      if (address?.schema === 'Address') attach(entity.id).addresses.push(address);
      else missingAddresses++;
    }
  }
  if (targets.length === 0) throw new ListFormatError('The file holds no person, organization, vessel or aircraft that its dataset targets');

  const { dataset, warnings } = chooseDataset(
    targets.map((e) => e.datasets ?? []),
    file,
  );
  const list = listCodeOfDataset(dataset);
  const listed = targets.map((entity) => {
    const own = attach(entity.id);
    return ftmToEntity(list, entity, { ...own, linkedTo: [...new Set(own.linkedTo)] });
  });

  const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
  if (delta) {
    const dropped = deleted ? `; ${count(deleted, 'deletion was', 'deletions were')} dropped` : '';
    warnings.push(`This is a delta: the list read from it holds only the ${count(listed.length, 'entity', 'entities')} it adds or modifies${dropped}`);
  }
  if (notTargets) {
    const what = count(notTargets, 'person, organization, vessel or aircraft', 'persons, organizations, vessels or aircraft');
    warnings.push(
      `${what} that the dataset does not target (owners, relatives …) ${notTargets === 1 ? 'is not a list entry' : 'are not list entries'}; they only name linked entities`,
    );
  }
  if (skipped.size)
    warnings.push(
      `Entities of schemas Gatehouse does not use were left out: ${[...skipped].map(([schema, n]) => `${schema} ${n.toLocaleString('en-US')}`).join(', ')}`,
    );
  if (missingAddresses)
    warnings.push(
      `${count(missingAddresses, 'address reference points', 'address references point')} to no Address entity in the file; those addresses are missing`,
    );
  return { list, entities: listed, warnings };
}

const captionOf = (entity: FtmEntity | undefined) => (entity ? entity.caption || values(entity, 'name')[0] : undefined);

/** The file's entities by id, after the delta operations if it is a delta. */
function readLines(text: string): { entities: Map<string, FtmEntity>; deleted: number; delta: boolean } {
  const entities = new Map<string, FtmEntity>();
  let deleted = 0;
  let delta = false;
  const lines = text.split('\n');
  const last = lines.findLastIndex((l) => l.trim() !== '');
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (!line) continue;
    const where = `Line ${index + 1}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      throw new ListFormatError(`${where} is not valid JSON${index === last ? ' (the file may be truncated)' : ''}: ${(error as Error).message}`);
    }
    const record = (parsed ?? {}) as Record<string, unknown>;
    if ('op' in record) {
      delta = true;
      if (record.op === 'DEL') {
        const id = (record.entity as { id?: unknown } | null)?.id;
        if (typeof id !== 'string') throw new ListFormatError(`${where} deletes an entity without an id`);
        deleted++;
        entities.delete(id);
      } else if (record.op === 'ADD' || record.op === 'MOD') {
        const entity = asEntity(record.entity, where);
        entities.set(entity.id, entity);
      } else throw new ListFormatError(`${where} has the operation ${JSON.stringify(record.op)}; a delta knows ADD, MOD and DEL`);
    } else {
      const entity = asEntity(record, where);
      entities.set(entity.id, entity);
    }
  }
  return { entities, deleted, delta };
}

/** The parts of a line's entity that are read, checked for their types. */
function asEntity(value: unknown, where: string): FtmEntity {
  const entity = (value ?? {}) as Record<string, unknown>;
  const { id, schema, properties, caption, datasets } = entity;
  if (typeof id !== 'string' || typeof schema !== 'string' || typeof properties !== 'object' || properties === null || Array.isArray(properties)) {
    throw new ListFormatError(`${where} is not a FollowTheMoney entity: it needs an id, a schema and properties`);
  }
  return {
    id,
    schema,
    properties: properties as Record<string, unknown>,
    ...(typeof caption === 'string' && caption.trim() && { caption: caption.trim() }),
    datasets: Array.isArray(datasets) ? datasets.filter((d): d is string => typeof d === 'string') : [],
    ...(entity.target === false && { target: false }),
  };
}
