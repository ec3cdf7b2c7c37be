/**
 * Stored ownership checks made the way the service makes them: the structure is sent to the real
 * POST /api/v1/ownership/check on a test app with `store`, and the record is read back from GET
 * /api/v1/ownership/checks/{id}, as the evidence route renders it.
 */
import assert from 'node:assert/strict';
import type { EvidenceOwnershipCheck } from '../../../../src/features/ownership/evidence/ownership-evidence-input.ts';
import type { TestTenant } from '../../../helpers/credentials.ts';
import type { TestApp } from '../../../helpers/test-app.ts';

export const ORGANIZATION = { id: 'org_01JQ4K8Z2R7M3X5V9T1B6N0C4D', name: 'Northwind Defense Systems' };

/**
 * Two owners on the SDN list (both in test/fixtures/ofac/sdn.csv, found by screening their names)
 * hold 30% and 25% of a Cyprus holding company, which holds 100% of the target. OFAC adds the
 * two stakes; for BIS only the SDGT designee counts (IRAN is no 744.8(a)(1) program).
 */
export const TWO_OWNERS_THROUGH_CYPRUS = {
  target: 'T',
  as_of: '2026-11-22',
  entities: [
    { id: 'O1', name: 'Example Trading Co., Ltd.', type: 'entity', country: 'IR' },
    { id: 'O2', name: 'Karim Yusuf Abu-Ali', type: 'person', country: 'LB' },
    { id: 'CY', name: 'Helios Maritime Holdings Ltd', type: 'entity', country: 'CY' },
    { id: 'M', name: 'Nikos Papadakis', type: 'person', country: 'GR' },
    { id: 'T', name: 'ООО Северный Ветер', type: 'entity', country: 'RU' },
  ],
  ownerships: [
    { owner: 'O1', owned: 'CY', percent: 30 },
    { owner: 'O2', owned: 'CY', percent: 25 },
    { owner: 'M', owned: 'CY', percent: 45 },
    { owner: 'CY', owned: 'T', percent: 100 },
  ],
};

/**
 * On a date the BIS rule is suspended: a listed owner holds 30% of the target, another listed
 * owner a stake of unknown size, so OFAC's answer lies between 30% and 75% and is not
 * determinate; a control relationship and an owner of unknown stake in an intermediate are
 * reported, not counted. The target's name is Arabic.
 */
export const UNKNOWN_STAKES_WHILE_SUSPENDED = {
  target: 'T',
  as_of: '2026-01-10',
  screen_names: false,
  entities: [
    { id: 'A', name: 'Alpha Resources', type: 'entity', designations: [{ list: 'OFAC_SDN' }] },
    { id: 'B', name: 'Beta Metals', type: 'entity', designations: [{ list: 'BIS_EL' }] },
    { id: 'I', name: 'Gamma Invest', type: 'entity', country: 'AE' },
    { id: 'C', name: 'Delta Holding', type: 'entity', country: 'AE' },
    { id: 'E', name: 'Epsilon Capital', type: 'entity', designations: [{ list: 'OFAC_SDN', programs: ['RUSSIA-EO14024'] }] },
    { id: 'T', name: 'شركة النور للتجارة', type: 'entity', country: 'AE' },
  ],
  ownerships: [
    { owner: 'A', owned: 'T', percent: 30 },
    { owner: 'B', owned: 'T', percent: null },
    { owner: 'A', owned: 'I', percent: 40 },
    { owner: 'C', owned: 'I', percent: null },
    { owner: 'I', owned: 'T', percent: 25 },
    { owner: 'E', owned: 'T', percent: null },
    { owner: 'C', owned: 'T', percent: 20, kind: 'control' },
  ],
};

export async function storedCheck(
  harness: TestApp,
  tenant: TestTenant,
  request: object,
  extra: Partial<EvidenceOwnershipCheck> = {},
): Promise<EvidenceOwnershipCheck> {
  const response = await harness.app.inject({ method: 'POST', url: '/api/v1/ownership/check', headers: tenant.headers, payload: { ...request, store: true } });
  assert.equal(response.statusCode, 200, response.body);
  const read = await harness.app.inject({ method: 'GET', url: `/api/v1/ownership/checks/${response.json().id}`, headers: tenant.headers });
  assert.equal(read.statusCode, 200, read.body);
  const { object, superseded_by, case_id, record_sha256_verified, ...check } = read.json();
  return { ...check, ...extra };
}
