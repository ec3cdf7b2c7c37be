/**
 * Small ownership graphs written the way the guidance writes its examples: `stake('X', 'A', 50)`
 * is "X owns 50 % of A". `check` validates before evaluating, as the route does, so a test graph
 * that the API would refuse fails loudly instead of testing nothing.
 */
import assert from 'node:assert/strict';
import { type EvaluationOptions, evaluateOwnership } from '../../src/ownership/evaluate.ts';
import type { Designation, DesignationList } from '../../src/ownership/list-scope.ts';
import type { GraphEntity, OwnershipLink, OwnershipVerdict, SourcedDesignation } from '../../src/ownership/types.ts';
import { validateOwnershipQuery } from '../../src/ownership/validate.ts';

/** A date on which the BIS rule is in force (2026-11-10 onwards). */
export const IN_FORCE = '2026-11-22';
/** A date inside the one-year stay. */
export const SUSPENDED = '2026-06-01';

export const on = (list: DesignationList, ...programs: string[]): SourcedDesignation => ({ list, ...(programs.length > 0 && { programs }), source: 'given' });
/** An SDN designation; RUSSIA-EO14024 is one of the programs that count for BIS as well. */
export const sdn = (...programs: string[]) => on('OFAC_SDN', ...(programs.length > 0 ? programs : ['RUSSIA-EO14024']));

export const person = (id: string, ...designations: Designation[]): GraphEntity => ({
  id,
  type: 'person',
  designations: designations.map((d) => ({ ...d, source: 'given' })),
});
export const company = (id: string, ...designations: Designation[]): GraphEntity => ({
  id,
  type: 'entity',
  country: 'CY',
  designations: designations.map((d) => ({ ...d, source: 'given' })),
});
export const usCompany = (id: string, ...designations: Designation[]): GraphEntity => ({ ...company(id, ...designations), country: 'US' });

export const stake = (owner: string, owned: string, percent: number | null, extra: Partial<OwnershipLink> = {}): OwnershipLink => ({
  owner,
  owned,
  percent,
  ...extra,
});

export function check(
  target: string,
  entities: GraphEntity[],
  ownerships: OwnershipLink[],
  asOf = IN_FORCE,
  options: EvaluationOptions = {},
): OwnershipVerdict {
  const query = { target, asOf, entities, ownerships };
  assert.deepEqual(validateOwnershipQuery(query).problems, [], 'the test graph must be valid');
  return evaluateOwnership(query, options);
}

export const warningCodes = (verdict: OwnershipVerdict) => verdict.warnings.map((w) => w.code);
