/**
 * What the benchmark's loopback publisher serves, and the LISTS_URL_* settings that point the
 * service at it: every source the service downloads in production, with real files. The OFAC SDN
 * starts a year old (2023-05-02); each refresh then replaces the edition served by the other one
 * (2024-05, then 2023-05 again, …), the real change of a year of designations in one direction or
 * the other. The other sources keep serving the same bytes, so their checks are conditional
 * requests answered 304, as most hourly checks are.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ListPublisher } from '../../test/helpers/list-publisher.ts';

const SDN_PATH = '/sls/sdn.csv';
/** The two editions the SDN alternates between, by the date each was published. */
export const SDN_EDITIONS = {
  '2023-05-02': 'ofac_sdn_2024-05/history/2023-05-02/sdn.csv',
  '2024-05': 'ofac_sdn_2024-05/sdn.csv',
} as const;
export type SdnEdition = keyof typeof SDN_EDITIONS;
/** What the publisher serves at first. */
export const FIRST_SDN_EDITION: SdnEdition = '2023-05-02';
/** The edition a refresh publishes after `served`. */
export const otherSdnEdition = (served: SdnEdition): SdnEdition => (served === '2023-05-02' ? '2024-05' : '2023-05-02');

/** Publisher path → file under the data folder, for the sources that do not change during the run. */
const STEADY_FILES: Record<string, string> = {
  '/sls/cons/cons_prim.csv': 'ofac_cons_2025-12/cons_prim.csv',
  '/sls/cons/cons_add.csv': 'ofac_cons_2025-12/cons_add.csv',
  '/sls/cons/cons_alt.csv': 'ofac_cons_2025-12/cons_alt.csv',
  '/sls/cons/cons_comments.csv': 'ofac_cons_2025-12/cons_comments.csv',
  '/un/consolidated.xml': 'un_sc_2026-02/consolidated.xml',
  '/csl/consolidated.csv': 'bis_el_meu_2026-08_as_csl/consolidated.csv',
  '/dpl/dpl.txt': 'bis_dpl_2023-11/dpl.txt',
  // The FCDO's CSV could not be collected whole (SOURCES.md §17); its summary export reads as the same list.
  '/uk/UK-Sanctions-List.ods': 'uk_fcdo_2025-08/FCDO_SL_Mon_Aug 11 2025.ods',
};

/** The six sources, as an operator would point them at a mirror. */
export function sourcesEnv(base: string): Record<string, string> {
  return {
    LISTS_URL_OFAC_SDN: `${base}${SDN_PATH}`,
    LISTS_URL_OFAC_CONS: `${base}/sls/cons/`,
    LISTS_URL_UN_SC: `${base}/un/consolidated.xml`,
    LISTS_URL_CSL: `${base}/csl/consolidated.csv`,
    LISTS_URL_BIS_DPL: `${base}/dpl/dpl.txt`,
    LISTS_URL_UK_FCDO: `${base}/uk/UK-Sanctions-List.ods`,
  };
}
export const SOURCE_COUNT = 6;

/** Serves every source, the SDN in its first edition. */
export function publishFirstSet(publisher: ListPublisher, dataDir: string) {
  for (const [urlPath, file] of Object.entries(STEADY_FILES)) publisher.serve(urlPath, fs.readFileSync(path.join(dataDir, file)));
  publishSdn(publisher, dataDir, FIRST_SDN_EDITION);
}

/** OFAC publishes a new SDN: from now on the publisher serves this edition. */
export function publishSdn(publisher: ListPublisher, dataDir: string, edition: SdnEdition) {
  publisher.serve(SDN_PATH, fs.readFileSync(path.join(dataDir, SDN_EDITIONS[edition])));
}

/** When the service first downloaded the SDN since `since` (performance.now()), once it has. */
export function sdnFetchedAt(publisher: ListPublisher, since: number): number | undefined {
  return publisher.requests.find((r) => r.path === SDN_PATH && r.status === 200 && r.at >= since)?.at;
}
