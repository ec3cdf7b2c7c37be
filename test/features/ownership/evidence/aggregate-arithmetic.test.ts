/**
 * The sums the evidence writes out, on answers of the real evaluation: they add up exactly as the
 * evaluation adds (in millionths), they say what they leave out, and they compare with 50%.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { entitySumLine, intermediateSums, MAX_TERMS, sumLine, targetSums } from '../../../../src/features/ownership/evidence/aggregate-arithmetic.ts';
import { ownershipRequest } from '../../../../src/features/ownership/request.ts';
import { FAQ_401_EXAMPLE_3 } from '../../../../src/features/ownership/request-examples.ts';
import { evaluateOwnership } from '../../../../src/ownership/evaluate.ts';

function evaluate(body: object) {
  const request = ownershipRequest({ screen_names: false, ...body } as Parameters<typeof ownershipRequest>[0], new Date('2026-11-22T12:00:00Z'));
  return evaluateOwnership(request.query, {}, request.resolved);
}
const name = (id: string) => `${id} Ltd (${id})`;

describe('the aggregate written out', () => {
  test("FAQ 401 Example 3 adds up as OFAC's example does: the target's covered owners, and the intermediate's", () => {
    const { ofac } = evaluate(FAQ_401_EXAMPLE_3);
    assert.deepEqual(targetSums(ofac, name), { lower: '40% held by A Ltd (A) + 10% held by X Ltd (X) = 50% ≥ 50%' });
    assert.deepEqual(
      intermediateSums(ofac.paths).map((sum) => entitySumLine(sum, name)),
      ['50% held by X Ltd (X) = 50% ≥ 50%'],
    );
  });

  test('an owner covered only if a stake of unknown size is large enough: the lower bound without it, the upper bound with it', () => {
    const listed = [{ list: 'OFAC_SDN', programs: ['RUSSIA-EO14024'] }];
    const { ofac } = evaluate({
      target: 'T',
      as_of: '2026-11-22',
      entities: [
        { id: 'X', type: 'person', designations: listed },
        { id: 'Y', type: 'person', designations: listed },
        { id: 'A', type: 'entity', country: 'CY' },
        { id: 'T', type: 'entity', country: 'AE' },
      ],
      ownerships: [
        { owner: 'X', owned: 'A', percent: 30 },
        { owner: 'Y', owned: 'A', percent: null },
        { owner: 'A', owned: 'T', percent: 60 },
        { owner: 'X', owned: 'T', percent: 10 },
      ],
    });
    assert.equal(ofac.determinate, false);
    assert.deepEqual(targetSums(ofac, name), {
      lower: '10% held by X Ltd (X) = 10% < 50%',
      upper: '60% held by A Ltd (A) (possibly covered) + 10% held by X Ltd (X) = 70% ≥ 50%',
    });
    assert.deepEqual(
      intermediateSums(ofac.paths).map((sum) => entitySumLine(sum, name)),
      ['30% held by X Ltd (X) = 30% < 50%; possibly also ?% held by Y Ltd (Y)'],
    );
  });

  test('stakes of unknown size in the target: at most what the known stakes leave', () => {
    const { ofac } = evaluate({
      target: 'T',
      as_of: '2026-11-22',
      entities: [
        { id: 'X', type: 'person', designations: [{ list: 'OFAC_SDN' }] },
        { id: 'Y', type: 'person', designations: [{ list: 'OFAC_SDN' }] },
        { id: 'Z', type: 'person' },
        { id: 'T', type: 'entity', country: 'AE' },
      ],
      ownerships: [
        { owner: 'X', owned: 'T', percent: 20 },
        { owner: 'Y', owned: 'T', percent: null },
        { owner: 'Z', owned: 'T', percent: 45 },
      ],
    });
    assert.deepEqual(targetSums(ofac, name).upper, '20% held by X Ltd (X) + 35% at most, for 1 stake of unknown size = 55% ≥ 50%');
  });

  test('sums are exact, as the evaluation adds them, and compare with 50%', () => {
    assert.equal(sumLine([{ percent: 21.9 }, { percent: 11.2 }, { percent: 16.9 }], 50), '21.9% + 11.2% + 16.9% = 50% ≥ 50%');
    assert.equal(sumLine([{ percent: 49.99 }], 49.99), '49.99% = 49.99% < 50%');
    assert.equal(sumLine([], 0), '0% < 50%: no covered owner holds a stake');
  });

  test('what the stakes shown leave of the stated aggregate is a term of its own, so the line adds up', () => {
    assert.equal(sumLine([{ percent: 30, label: 'held by A' }], 55), '30% held by A + 25% held by other covered owners = 55% ≥ 50%');
  });

  test('a long sum is stated when its stakes are in a table above, and written out in full when they are not', () => {
    const terms = Array.from({ length: MAX_TERMS + 1 }, () => ({ percent: 4 }));
    assert.equal(sumLine(terms, 52, ['certain stake', 'certain stakes']), 'the 13 certain stakes in the table above = 52% ≥ 50%');
    assert.equal(sumLine(terms, 52), `${Array(13).fill('4%').join(' + ')} = 52% ≥ 50%`);
  });
});
