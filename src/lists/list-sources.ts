/**
 * The official downloads `gatehouse lists update` fetches, built from the configured URLs (one
 * per source, official by default, `off` to skip one). Files keep their official names, which is
 * how the format is recognized when they are read back.
 */
import type { ListSourceUrls } from '../config.ts';
import type { ListCode } from '../screening/model.ts';

export type ListSource = {
  name: keyof ListSourceUrls;
  label: string;
  /** The lists this source is the authority for. */
  lists: ListCode[];
  files: { url: string; fileName: string }[];
};

type SourceShape = Omit<ListSource, 'files'> & { fileNames: string[]; folder: boolean };

const SOURCES: SourceShape[] = [
  { name: 'ofacSdn', label: 'OFAC SDN (legacy CSV)', lists: ['OFAC_SDN'], folder: true, fileNames: ['sdn.csv', 'add.csv', 'alt.csv', 'sdn_comments.csv'] },
  { name: 'ofacCons', label: 'OFAC Consolidated non-SDN (legacy CSV)', lists: ['OFAC_CONS'], folder: true, fileNames: ['cons_prim.csv', 'cons_add.csv', 'cons_alt.csv', 'cons_comments.csv'] },
  { name: 'unSc', label: 'UN Security Council Consolidated List', lists: ['UN_SC'], folder: false, fileNames: ['consolidated.xml'] },
  { name: 'bisDpl', label: 'BIS Denied Persons List', lists: ['BIS_DPL'], folder: false, fileNames: ['dpl.txt'] },
  // The CSL repeats the SDN, the DPL and the non-SDN lists; those come from their own sources
  // when those are configured (list-update.ts), and from the CSL when they are turned off.
  { name: 'csl', label: 'trade.gov Consolidated Screening List', lists: ['BIS_EL', 'BIS_UVL', 'BIS_MEU', 'DDTC_DEBARRED', 'STATE_ISN'], folder: false, fileNames: ['consolidated.csv'] },
];

/** The sources an operator has not turned off, with each file's URL. */
export function configuredSources(urls: ListSourceUrls): ListSource[] {
  return SOURCES.flatMap(({ fileNames, folder, ...source }) => {
    const url = urls[source.name];
    if (url === undefined) return [];
    const files = fileNames.map((fileName) => ({ fileName, url: folder ? new URL(fileName, url.endsWith('/') ? url : `${url}/`).href : url }));
    return [{ ...source, files }];
  });
}

/** The lists a complete set of the configured sources provides. */
export const expectedLists = (urls: ListSourceUrls): ListCode[] => configuredSources(urls).flatMap((s) => s.lists);
