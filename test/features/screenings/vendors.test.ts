/**
 * POST /vendors/screen against the hand-written OFAC fixture: vendors screened in input order,
 * stored and updated by external id, held for an embargoed country, and a bad batch refused whole.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { loadSdn } from '../../helpers/sdn-loading.ts';
import { fixture, openScreeningApp } from './screening-app.ts';

describe('vendor screening', () => {
  const app = openScreeningApp();
  const { post } = app;
  before(async () => {
    await loadSdn(app.harness, fixture('ofac/sdn.csv'), fixture('ofac/alt.csv'));
  });

  test('vendors are screened in input order, stored, and updated by external id', async () => {
    const vendors = [
      { name: 'Example Trading Co Ltd', country: 'ae', external_id: 'V-1' },
      { name: 'Harmless Widgets GmbH', country: 'DE', external_id: 'V-2', identifiers: [{ type: 'registration', value: '123456789' }] },
      { name: 'Sea Star' },
    ];
    const response = await post('/api/v1/vendors/screen', app.enterprise, { vendors });
    assert.equal(response.statusCode, 201);
    const body = response.json();
    assert.deepEqual(
      body.results.map((r: { index: number; screening: { outcome: string } }) => [r.index, r.screening.outcome]),
      [
        [0, 'potential_match'],
        [1, 'clear'],
        [2, 'potential_match'],
      ],
    );
    assert.deepEqual(body.totals, { vendors: 3, potential_match: 2, clear: 1 });
    const again = (await post('/api/v1/vendors/screen', app.enterprise, { vendors: [{ name: 'Example Trading Co Ltd', external_id: 'V-1' }] })).json();
    assert.equal(again.results[0].vendor_id, body.results[0].vendor_id, 'the same external id updates the same vendor');
  });

  test('a vendor registered in an embargoed country is held with no name match; one elsewhere is clear', async () => {
    const body = (
      await post('/api/v1/vendors/screen', app.enterprise, {
        vendors: [
          { name: 'Caspian Ordinary Supplies', country: 'IR' },
          { name: 'Fjord Ordinary Supplies', country: 'NO' },
        ],
      })
    ).json();
    const [iran, norway] = body.results.map(
      (r: { screening: { outcome: string; holds: { regime: string; detail: string }[]; case_id: string | null } }) => r.screening,
    );
    assert.deepEqual(
      [iran.outcome, iran.holds.map((h: { regime: string; detail: string }) => `${h.regime}: ${h.detail}`)],
      ['potential_match', ['OFAC_COMPREHENSIVE: country IR', 'ITAR_126_1: country IR']],
    );
    assert.match(iran.case_id, /^case_/);
    assert.deepEqual([norway.outcome, norway.holds, norway.case_id], ['clear', [], null]);
    assert.deepEqual(body.totals, { vendors: 2, potential_match: 1, clear: 1 });
  });

  test('a vendor batch with bad elements is refused whole, each pointed at, and nothing is stored', async () => {
    const before = await app.harness.database.owner<{ n: string }>('SELECT count(*) AS n FROM screenings');
    const response = await post('/api/v1/vendors/screen', app.enterprise, {
      vendors: [{ name: 'Fine Co' }, { name: 'Bad Country', country: 'QQ' }, { name: 'Dup', external_id: 'X' }, { name: 'Dup 2', external_id: 'X' }],
    });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(
      response.json().errors.map((e: { pointer: string }) => e.pointer),
      ['/vendors/1/country', '/vendors/3/external_id'],
    );
    const afterwards = await app.harness.database.owner<{ n: string }>('SELECT count(*) AS n FROM screenings');
    assert.equal(afterwards[0]?.n, before[0]?.n);
    const tooMany = await post('/api/v1/vendors/screen', app.enterprise, { vendors: Array.from({ length: 1001 }, (_, i) => ({ name: `Vendor ${i}` })) });
    assert.equal(tooMany.statusCode, 400);
    assert.equal(tooMany.json().errors[0].pointer, '/vendors');
  });
});
