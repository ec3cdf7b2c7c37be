/**
 * The examples of the OpenAPI description: two requests, and the answer to the first computed by
 * the evaluation itself when the description is built, so the documented answer cannot drift
 * from what the service says.
 */
import { evaluateOwnership } from '../../ownership/evaluate.ts';
import { ownershipRequest } from './request.ts';

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

/** The answer to FAQ 401 Example 3 (its names not screened, as with `screen_names: false`). */
export function documentedAnswer() {
  const now = new Date('2026-11-22T15:04:05Z');
  const request = ownershipRequest({ ...FAQ_401_EXAMPLE_3, screen_names: false }, now);
  return {
    object: 'ownership_check',
    id: 'own_01kaq3m2c5v8x0f3r6t9w2y5b8',
    ...evaluateOwnership(request.query, {}, request.resolved),
    checked_at: now.toISOString(),
    screening: {
      performed: false,
      threshold: null,
      entities_screened: 0,
      names_screened: 0,
      entities_matched: 0,
      entities_designated: 0,
      list_versions: [],
      lists_stale: false,
      stale_lists: [],
    },
  };
}
