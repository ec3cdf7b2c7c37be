/**
 * What the benchmark's loopback publisher serves, and the LISTS_URL_* settings that point the
 * service at it: every source the service downloads in production, with real files. The OFAC SDN
 * starts a year old (2023-05-02) and is later replaced by its 2024-05 edition, the real change
 * of a year of designations; the other sources keep serving the same bytes, so their checks are
 * conditional requests answered 304, as most hourly checks are.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ListPublisher } from '../../test/helpers/list-publisher.ts';

const SDN_PATH = '/sls/sdn.csv';
export const SDN_EARLIER = 'ofac_sdn_2024-05/history/2023-05-02/sdn.csv';
export const SDN_LATER = 'ofac_sdn_2024-05/sdn.csv';

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

/** Serves every source, the SDN in its earlier edition. */
export function publishEarlierSet(publisher: ListPublisher, dataDir: string) {
  for (const [urlPath, file] of Object.entries(STEADY_FILES)) publisher.serve(urlPath, fs.readFileSync(path.join(dataDir, file)));
  publisher.serve(SDN_PATH, fs.readFileSync(path.join(dataDir, SDN_EARLIER)));
}

/** OFAC publishes a new SDN: from now on the publisher serves the later edition. */
export function publishLaterSdn(publisher: ListPublisher, dataDir: string) {
  publisher.serve(SDN_PATH, fs.readFileSync(path.join(dataDir, SDN_LATER)));
}

/** When the service first downloaded the later SDN (performance.now()), once it has. */
export function laterSdnFetchedAt(publisher: ListPublisher, since: number): number | undefined {
  return publisher.requests.find((r) => r.path === SDN_PATH && r.status === 200 && r.at >= since)?.at;
}
