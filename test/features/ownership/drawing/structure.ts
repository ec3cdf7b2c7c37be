/**
 * The structure the drawing tests draw: two SDN-listed owners holding 30% and 25% of a Cyprus
 * holding company that holds 100% of the target (OFAC: blocked, 55% through the holding), an
 * Entity List owner that makes the holding restricted under BIS with one of them, a cycle among
 * the owners, a stake of unknown size, a control link, and 300 minority holders that change
 * nothing. Names carry markup, quotes, ampersands, Arabic and Chinese. The answer is the real
 * evaluation's, as POST /v1/ownership/check gives it (names not screened).
 */

import type { DrawnAnswer } from '../../../../src/features/ownership/drawing/layout-types.ts';
import { NOT_SCREENED } from '../../../../src/features/ownership/name-screening.ts';
import type { OwnershipBody } from '../../../../src/features/ownership/request.ts';
import { ownershipRequest } from '../../../../src/features/ownership/request.ts';
import { evaluateOwnership } from '../../../../src/ownership/evaluate.ts';

export const NAMES = {
  target: 'Delta Freight & Logistics "FZE"',
  holding: 'Kyrenia <Holdings> Ltd',
  sdnPerson: "Ivan <script>alert('x')</script> Petrov",
  sdnArabic: 'شركة النور للتجارة',
  entityList: '深圳光明电子有限公司',
  controller: 'Vaduz Trust & Co',
  cycleA: 'Alpha One Ltd',
  cycleB: "Beta 'Two' GmbH",
  nominee: 'Nominee Services S.A.',
};

export const MINORITY_HOLDERS = 300;
export const minorityId = (i: number) => `M${String(i).padStart(3, '0')}`;

export function structureBody(): OwnershipBody {
  const minority = Array.from({ length: MINORITY_HOLDERS }, (_, i) => minorityId(i + 1));
  return {
    target: 'T',
    as_of: '2026-11-22',
    screen_names: false,
    entities: [
      { id: 'T', name: NAMES.target, type: 'entity', country: 'AE' },
      { id: 'H', name: NAMES.holding, type: 'entity', country: 'CY' },
      { id: 'S1', name: NAMES.sdnPerson, type: 'person', country: 'RU', designations: [{ list: 'OFAC_SDN', programs: ['RUSSIA-EO14024'] }] },
      { id: 'S2', name: NAMES.sdnArabic, type: 'entity', country: 'IR', designations: [{ list: 'OFAC_SDN', programs: ['IRAN'] }] },
      { id: 'E', name: NAMES.entityList, type: 'entity', country: 'CN', designations: [{ list: 'BIS_EL' }] },
      { id: 'C', name: NAMES.controller, type: 'entity', country: 'LI' },
      { id: 'A1', name: NAMES.cycleA, type: 'entity', country: 'MT' },
      { id: 'A2', name: NAMES.cycleB, type: 'entity', country: 'DE' },
      { id: 'U', name: NAMES.nominee, type: 'entity', country: 'PA' },
      ...minority.map((id) => ({ id, name: `Minority Holder ${id} Ltd`, type: 'entity' as const, country: 'GB' })),
    ],
    ownerships: [
      { owner: 'H', owned: 'T', percent: 100 },
      { owner: 'S1', owned: 'H', percent: 30 },
      { owner: 'S2', owned: 'H', percent: 25 },
      { owner: 'E', owned: 'H', percent: 25 },
      { owner: 'A2', owned: 'H', percent: 5 },
      { owner: 'A1', owned: 'A2', percent: 40 },
      { owner: 'A2', owned: 'A1', percent: 10 },
      { owner: 'U', owned: 'H', percent: null },
      { owner: 'C', owned: 'H', percent: null, kind: 'control' },
      ...minority.map((id) => ({ owner: id, owned: 'H', percent: 0.05 })),
    ],
  };
}

/** The answer the check gives for `body`, as stored with it. */
export function answerFor(body: OwnershipBody): DrawnAnswer {
  const request = ownershipRequest(body, new Date('2026-11-22T15:00:00Z'));
  const verdict = evaluateOwnership(request.query, {}, request.resolved);
  return { ...verdict, checked_at: '2026-11-22T15:00:00.000Z', object: 'ownership_check', id: 'own_drawing', screening: NOT_SCREENED } as DrawnAnswer;
}

export function structure() {
  const request = structureBody();
  return { request, answer: answerFor(request) };
}

/**
 * A wide structure: `listed` listed owners (SDN and Entity List by turns) holding small stakes in
 * twelve holding companies, six intermediates between them and the target, some owners holding
 * in the intermediates or the target directly (edges across rows), and 100 minority holders.
 */
export function wideStructureBody(listed: number): OwnershipBody {
  const range = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
  const [intermediates, holdings, owners, minority] = [range(6, 'I'), range(12, 'K'), range(listed, 'L'), range(100, 'M')];
  const designation = (i: number) => (i % 2 === 0 ? [{ list: 'OFAC_SDN' as const, programs: ['RUSSIA-EO14024'] }] : [{ list: 'BIS_EL' as const }]);
  return {
    target: 'T',
    as_of: '2026-11-22',
    screen_names: false,
    entities: [
      { id: 'T', name: 'Wide Target Trading LLC', type: 'entity', country: 'AE' },
      ...[...intermediates, ...holdings, ...minority].map((id) => ({ id, name: `${id} Holdings Limited`, type: 'entity' as const, country: 'CY' })),
      ...owners.map((id, i) => ({ id, name: `Listed Owner ${id} Group`, type: 'entity' as const, country: 'RU', designations: designation(i) })),
    ],
    ownerships: [
      ...intermediates.map((id) => ({ owner: id, owned: 'T', percent: 10 })),
      ...holdings.map((id, j) => ({ owner: id, owned: intermediates[j % 6] as string, percent: 8 })),
      ...owners.flatMap((id, i) => [
        { owner: id, owned: holdings[i % 12] as string, percent: 1 },
        ...(i % 7 === 0 ? [{ owner: id, owned: 'T', percent: 0.5 }] : []),
        ...(i % 11 === 0 ? [{ owner: id, owned: intermediates[i % 6] as string, percent: 1 }] : []),
      ]),
      ...minority.map((id) => ({ owner: id, owned: 'T', percent: 0.01 })),
    ],
  };
}
