/**
 * Loads the real lists the evaluation and the benchmark screen against. "All lists" is every
 * parseable list in the data folder, once: the newest complete SDN (2024-05 main file with the
 * 2025-01 side files), the OFAC consolidated list, the UN list, the DPL, the UK list and the
 * Entity List/MEU in the CSL layout. Left out on purpose: the 2023-05 SDN (history), the 2026-06
 * side files (no main file of that date), the 14-row CSL format sample and the derived JSON the
 * CSL file was made from (the same entries twice).
 *
 * Every source but the SDN goes through readListSources, and a format it cannot read yet is
 * reported as missing rather than failing the run. The SDN is parsed here because its newest
 * main file and its newest side files sit in different folders, which readListSources (rightly)
 * does not join.
 */
import path from 'node:path';
import { ListFormatError } from '../../src/screening/lists/list-format-error.ts';
import { parseOfacLegacy } from '../../src/screening/lists/ofac-legacy.ts';
import { readListSources } from '../../src/screening/lists/read-list-sources.ts';
import type { ListCode, ListEntity } from '../../src/screening/model.ts';
import { readDataFile } from './eval-data.ts';

export type LoadedList = { list: ListCode; source: string; entities: ListEntity[] };
export type LoadedLists = { lists: LoadedList[]; missing: string[] };

const OTHER_SOURCES = ['ofac_cons_2025-12', 'un_sc_2026-02', 'bis_dpl_2023-11', 'uk_fcdo_2025-08', 'bis_el_meu_2026-08_as_csl'];

/** The lists in one source folder, or undefined when its format cannot be read yet. */
async function readSource(dataDir: string, source: string): Promise<LoadedList[] | undefined> {
  try {
    const parsed = await readListSources([path.join(dataDir, source)]);
    return parsed.map((p) => ({ list: p.list, source, entities: p.entities }));
  } catch (error) {
    if (error instanceof ListFormatError && error.message.includes('cannot be read yet')) return undefined;
    throw error;
  }
}

/** An SDN main file on its own (the temporal hold-out compares two of them). */
export function loadSdnMainFile(dataDir: string, relative: string): ListEntity[] {
  return parseOfacLegacy('OFAC_SDN', { main: readDataFile(dataDir, relative, 'latin1') }).entities;
}

function loadNewestSdn(dataDir: string): LoadedList {
  const read = (file: string) => readDataFile(dataDir, file, 'latin1');
  const { entities } = parseOfacLegacy('OFAC_SDN', {
    main: read('ofac_sdn_2024-05/sdn.csv'),
    addresses: read('ofac_sdn_2025-01/add.csv'),
    aliases: read('ofac_sdn_2025-01/alt.csv'),
    comments: read('ofac_sdn_2025-01/sdn_comments.csv'),
  });
  return { list: 'OFAC_SDN', source: 'ofac_sdn_2024-05 + ofac_sdn_2025-01 side files', entities };
}

export async function loadAllLists(dataDir: string): Promise<LoadedLists> {
  const lists = [loadNewestSdn(dataDir)];
  const missing: string[] = [];
  for (const source of OTHER_SOURCES) {
    const loaded = await readSource(dataDir, source);
    if (loaded) lists.push(...loaded);
    else missing.push(source);
  }
  return { lists, missing };
}

/** The UN list alone, or undefined while its format cannot be read yet. */
export async function loadUnList(dataDir: string): Promise<ListEntity[] | undefined> {
  return (await readSource(dataDir, 'un_sc_2026-02'))?.flatMap((l) => l.entities);
}
