/**
 * One entry point for every list source: files and folders in, parsed lists out. It finds the
 * list files (a folder is read with its direct subfolders), recognises each one's format or takes
 * the one forced, joins OFAC's side files to their main file, parses, and fingerprints the bytes
 * it read, so that an import can tell a new version from the one it already holds. A file that
 * cannot be parsed fails the whole call: a list is never imported half read.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { ListCode, ListEntity } from '../model.ts';
import { parseBisDpl } from './bis-dpl.ts';
import { parseCslCsv } from './csl-csv.ts';
import { parseCslJson } from './csl-json.ts';
import { parseFtmEntities } from './ftm-entities.ts';
import { DETECTION_HEAD_BYTES, decodeText, detectFormat, LIST_FORMATS, type ListFormat, type ListReading, type OfacRole, ofacPart } from './list-format.ts';
import { ListFormatError } from './list-format-error.ts';
import { parseOfacEnhanced } from './ofac-enhanced-xml.ts';
import { parseOfacLegacy } from './ofac-legacy.ts';
import { parseUkFcdo, publishedFromFileName } from './uk-fcdo.ts';
import { parseUkSanctionsCsv } from './uk-sanctions-csv.ts';
import { parseUnSc } from './un-sc.ts';

export type { ListFormat, ListReading } from './list-format.ts';

export type ParsedList = {
  list: ListCode;
  format: ListFormat;
  /** Absolute paths that were read. */
  files: string[];
  /** Hex SHA-256 over the bytes of the files read, in sorted path order. */
  sourceSha256: string;
  /** YYYY-MM-DD when the source states it; undefined otherwise. */
  publishedAt?: string;
  entities: ListEntity[];
  /** Human sentences about what was dropped or guessed. */
  warnings: string[];
};

export type SourceFile = { path: string; bytes: Buffer };
type Reader = (files: SourceFile[]) => ListReading[];

const READERS: Record<ListFormat, Reader> = {
  'ofac-legacy': readOfac,
  'bis-dpl': ([file]) => [{ list: 'BIS_DPL', entities: parseBisDpl(decodeText((file as SourceFile).bytes)), warnings: [] }],
  'un-sc-xml': ([file]) => [{ list: 'UN_SC', ...parseUnSc(decodeText((file as SourceFile).bytes)), warnings: [] }],
  'csl-csv': ([file]) => parseCslCsv(decodeText((file as SourceFile).bytes)),
  'csl-json': ([file]) => parseCslJson(decodeText((file as SourceFile).bytes)),
  'uk-fcdo-ods': ([file]) => {
    const { path: filePath, bytes } = file as SourceFile;
    const publishedAt = publishedFromFileName(path.basename(filePath));
    return [{ ...parseUkFcdo(bytes), ...(publishedAt && { publishedAt }) }];
  },
  'uk-fcdo-csv': ([file]) => [parseUkSanctionsCsv(decodeText((file as SourceFile).bytes))],
  'ofac-enhanced-xml': ([file]) => [parseOfacEnhanced((file as SourceFile).bytes, path.basename((file as SourceFile).path))],
  'opensanctions-ftm': ([file]) => {
    const { path: filePath, bytes } = file as SourceFile;
    return [parseFtmEntities(decodeText(bytes), { name: path.basename(filePath), folder: path.basename(path.dirname(filePath)) })];
  },
};

type Candidate = { path: string; explicit: boolean; format: ListFormat };

export async function readListSources(paths: string[], options: { format?: ListFormat } = {}): Promise<ParsedList[]> {
  if (options.format && !LIST_FORMATS.includes(options.format))
    throw new ListFormatError(`Unknown list format "${options.format}"; known formats: ${LIST_FORMATS.join(', ')}`);
  const candidates = new Map<string, Candidate>();
  for (const given of paths) {
    const absolute = path.resolve(given);
    const found = await findListFiles(absolute, options.format);
    if (groupSources(found).length === 0) throw new ListFormatError(`${absolute} holds no list file; known formats: ${LIST_FORMATS.join(', ')}`);
    for (const candidate of found) if (!candidates.get(candidate.path)?.explicit) candidates.set(candidate.path, candidate);
  }
  const results: ParsedList[] = [];
  for (const group of groupSources([...candidates.values()])) {
    const reader = READERS[group.format];
    const files = await Promise.all(group.paths.sort().map(async (p) => ({ path: p, bytes: await fs.readFile(p) })));
    const sourceSha256 = files.reduce((hash, f) => hash.update(f.bytes), createHash('sha256')).digest('hex');
    let readings: ListReading[];
    try {
      readings = reader(files);
    } catch (error) {
      const names = group.paths.join(', ');
      throw new ListFormatError(`${names}: cannot be read as ${group.format}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    for (const reading of readings) {
      results.push({ ...reading, format: group.format, files: group.paths, sourceSha256, ...(reading.publishedAt && { publishedAt: reading.publishedAt }) });
    }
  }
  return results;
}

/** A named file is a list or an error; a folder yields the lists in it and in its direct subfolders. */
async function findListFiles(absolute: string, forced: ListFormat | undefined): Promise<Candidate[]> {
  const stat = await fs.stat(absolute).catch(() => undefined);
  if (!stat) throw new ListFormatError(`${absolute} does not exist`);
  if (stat.isFile()) {
    const format = forced ?? (await detect(absolute));
    if (!format) throw new ListFormatError(`${absolute} is not a list file in a known format (${LIST_FORMATS.join(', ')}); name one with --format`);
    return [{ path: absolute, explicit: true, format }];
  }
  const found: Candidate[] = [];
  for (const folder of [absolute, ...(await subfolders(absolute))]) {
    for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
      const file = path.join(folder, entry.name);
      if (!(entry.isFile() || (entry.isSymbolicLink() && (await fs.stat(file).catch(() => undefined))?.isFile()))) continue;
      const format = forced ?? (await detect(file));
      if (format) found.push({ path: file, explicit: false, format });
    }
  }
  return found;
}

async function subfolders(folder: string): Promise<string[]> {
  const entries = await fs.readdir(folder, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => path.join(folder, e.name))
    .sort();
}

async function detect(file: string): Promise<ListFormat | undefined> {
  const handle = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(DETECTION_HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return detectFormat(file, head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/**
 * OFAC's files of one list in one folder form one source; every other file is a source of its
 * own. OFAC side files without their main file are refused when named, skipped in a folder.
 */
function groupSources(candidates: Candidate[]): { format: ListFormat; paths: string[] }[] {
  const groups = new Map<string, { format: ListFormat; paths: string[]; explicit: boolean }>();
  for (const c of candidates.sort((a, b) => a.path.localeCompare(b.path))) {
    const key = c.format === 'ofac-legacy' ? `ofac:${path.dirname(c.path)}:${ofacPart(c.path).list}` : c.path;
    const group = groups.get(key) ?? { format: c.format, paths: [], explicit: false };
    group.paths.push(c.path);
    group.explicit ||= c.explicit;
    groups.set(key, group);
  }
  return [...groups.values()].filter((group) => {
    if (group.format !== 'ofac-legacy') return true;
    const mains = group.paths.filter((p) => ofacPart(p).role === 'main');
    if (mains.length > 1) throw new ListFormatError(`${mains.join(' and ')} are two main files of one OFAC list in one folder`);
    if (mains.length === 1) return true;
    if (group.explicit)
      throw new ListFormatError(`${group.paths.join(', ')}: OFAC side files need their main file (sdn.csv or cons_prim.csv) in the same folder`);
    return false;
  });
}

function readOfac(files: SourceFile[]): ListReading[] {
  const byRole = new Map(files.map((f) => [ofacPart(f.path).role, f]));
  const texts: Partial<Record<OfacRole, string>> = Object.fromEntries([...byRole].map(([role, f]) => [role, decodeText(f.bytes)]));
  const main = byRole.get('main') as SourceFile;
  const list = ofacPart(main.path).list;
  const { entities, orphans } = parseOfacLegacy(list, { ...texts, main: texts.main as string });
  const mainName = path.basename(main.path);
  const warnings = (['addresses', 'aliases', 'comments'] as const).flatMap((role) => {
    const count = orphans[role];
    const file = byRole.get(role);
    if (!count || !file) return [];
    const entries = count === 1 ? '1 entry' : `${count.toLocaleString('en-US')} entries`;
    return [`${entries} in ${path.basename(file.path)} ${count === 1 ? 'is' : 'are'} absent from ${mainName}; their rows were dropped`];
  });
  return [{ list, entities, warnings }];
}
