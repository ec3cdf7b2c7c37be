/**
 * The trade.gov Consolidated Screening List mixes lists from three departments; its `source`
 * column names each one, e.g. "Entity List (EL) - Bureau of Industry and Security". This maps a
 * source to Gatehouse's list code by the abbreviation in parentheses. OFAC's non-SDN lists (SSI,
 * FSE, PLC, NS-MBS, CMIC, CAPTA) are one list for Gatehouse, OFAC_CONS, as in OFAC's own files,
 * so the sub-list is kept as a program. A source Gatehouse does not know keeps a code of its own.
 */
import type { ListCode } from '../model.ts';

export type CslSource = { list: ListCode; subList?: string; known: boolean };

const BY_ABBREVIATION: Record<string, ListCode> = {
  EL: 'BIS_EL',
  UVL: 'BIS_UVL',
  MEU: 'BIS_MEU',
  DPL: 'BIS_DPL',
  DTC: 'DDTC_DEBARRED',
  SDN: 'OFAC_SDN',
  ISN: 'STATE_ISN',
};
const OFAC_NON_SDN = new Set(['SSI', 'FSE', 'PLC', 'NS-MBS', 'CMIC', 'CAPTA', 'NS-PLC', 'MBS']);

export function cslSource(source: string): CslSource {
  const abbreviation = /\(([^)]+)\)/
    .exec(source)?.[1]
    ?.replace(/\s+List$/i, '')
    .trim()
    .toUpperCase();
  if (abbreviation && BY_ABBREVIATION[abbreviation]) return { list: BY_ABBREVIATION[abbreviation] as ListCode, known: true };
  if (abbreviation && OFAC_NON_SDN.has(abbreviation)) return { list: 'OFAC_CONS', subList: abbreviation, known: true };
  const basis = abbreviation ?? source.split(' - ')[0] ?? source;
  const code = basis
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
  return { list: code || 'CSL_UNKNOWN', known: false };
}
