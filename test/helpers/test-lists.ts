/**
 * Small invented lists in the real formats, for tests that screen through the API: a few SDN
 * rows in OFAC's legacy CSV (blocking, with programs) and a few Unverified List organizations
 * (not blocking), so that priorities and list filters have something to tell apart.
 */
import { createHash } from 'node:crypto';
import { importList, type ListToImport } from '../../src/lists/list-import.ts';
import { parseOfacLegacy } from '../../src/screening/lists/ofac-legacy.ts';
import { emptyEntity } from '../../src/screening/model.ts';
import type { TestApp } from './test-app.ts';

export const SDN_ROWS = [
  `10001,"ABU-'ALI, Karim Yusuf","individual","SDGT] [IRGC","Commander",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 12 Feb 1961; nationality Iran."`,
  `20001,"VOLKOV, Dmitri Sergeyevich","individual","RUSSIA-EO14024",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 03 Apr 1970; nationality Russia."`,
  `20002,"NORTHWIND MARITIME LLC",-0- ,"RUSSIA-EO14024",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- `,
];

/** The SDN as a list to import; `rows` replaces or extends the default rows (a later version). */
export function sdnList(rows: string[] = SDN_ROWS): ListToImport {
  const main = `${rows.join('\r\n')}\r\n\x1a`;
  return {
    list: 'OFAC_SDN',
    format: 'ofac-legacy',
    files: [],
    sourceSha256: hashOf(main),
    entities: parseOfacLegacy('OFAC_SDN', { main }).entities,
    warnings: [],
  };
}

export const UVL_NAMES = ['Zephyr Quantum Electronics Trading', 'Quillon Precision Components', 'Marlowe Gyroscope Instruments'];

export function uvlList(names: string[] = UVL_NAMES): ListToImport {
  const entities = names.map((name, i) =>
    emptyEntity({ list: 'BIS_UVL', entryId: `uvl-${i + 1}`, type: 'organization', names: [{ full: name, kind: 'primary' }], countries: ['CN'] }),
  );
  return { list: 'BIS_UVL', format: 'csl-csv', files: [], sourceSha256: hashOf(names.join('\n')), entities, warnings: [] };
}

/** Imports the lists and waits until the app screens against them and knows how current they are. */
export async function loadTestLists(harness: TestApp, lists: ListToImport[] = [sdnList(), uvlList()]): Promise<void> {
  for (const list of lists) await importList(harness.database.db.lists, list);
  await harness.app.lists.refresh();
  await harness.app.listFreshness.reload();
}

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex');
