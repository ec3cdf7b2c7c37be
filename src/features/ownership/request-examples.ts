/**
 * The example requests the OpenAPI description shows (schemas.ts puts them on the request schema).
 * Plain data, importing nothing: the documented answer to the first (documented-answer.ts) goes
 * through the request parsing, which the schema types, so the examples sit below both.
 */

/** OFAC FAQ 401 Example 3: X (an SDN) owns 50% of A and 10% of T; A owns 40% of T. T is blocked. */
export const FAQ_401_EXAMPLE_3 = {
  target: 'T',
  as_of: '2026-11-22',
  entities: [
    { id: 'X', name: 'Example Oligarch', type: 'person' as const, designations: [{ list: 'OFAC_SDN' as const, programs: ['RUSSIA-EO14024'] }] },
    { id: 'A', name: 'Alpha Holdings Ltd', type: 'entity' as const, country: 'CY' },
    { id: 'T', name: 'Target Trading LLC', type: 'entity' as const, country: 'AE' },
  ],
  ownerships: [
    { owner: 'X', owned: 'A', percent: 50 },
    { owner: 'X', owned: 'T', percent: 10 },
    { owner: 'A', owned: 'T', percent: 40 },
  ],
};

/** An Entity List owner with 35%, an MEU owner with a stake of unknown size, and control that never counts: Red Flag 29. */
const UNKNOWN_STAKE = {
  target: 'T',
  screen_names: false,
  entities: [
    { id: 'E', type: 'entity' as const, country: 'CN', designations: [{ list: 'BIS_EL' as const }] },
    { id: 'M', type: 'entity' as const, country: 'RU', designations: [{ list: 'BIS_MEU' as const }] },
    { id: 'T', type: 'entity' as const, country: 'HK' },
  ],
  ownerships: [
    { owner: 'E', owned: 'T', percent: 35 },
    { owner: 'M', owned: 'T', percent: null },
    { owner: 'E', owned: 'T', percent: null, kind: 'control' },
  ],
};

export const REQUEST_EXAMPLES = [FAQ_401_EXAMPLE_3, UNKNOWN_STAKE];
