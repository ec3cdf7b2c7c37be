/**
 * Prescreen against the real SDN file: a listed name, its typo, its transliteration and a company
 * with its legal form abbreviated each come back as a potential match with the right entry; a
 * vessel and a person are found by their identifiers; a clean name is clear.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { readListFile, skipWithoutListData } from '../../helpers/list-data.ts';
import { loadSdn } from '../../helpers/sdn-loading.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';

describe('screening the real SDN', { skip: skipWithoutListData() }, () => {
  let harness: TestApp;
  let tenant: TestTenant;
  before(async () => {
    harness = await buildTestApp();
    tenant = await createTenant(harness.database.owner, { tier: 'defense' });
    await loadSdn(harness, readListFile('ofac_sdn_2024-05/sdn.csv'));
  });
  after(() => harness.close());

  const cases: [string, Record<string, unknown>, string][] = [
    ['a listed name', { subject: 'Vladimir Vladimirovich Putin' }, '35096'],
    ['its typo', { subject: 'Vladimir Vladimirovich Puttin' }, '35096'],
    ['its transliteration', { subject: 'Владимир Владимирович Путин' }, '35096'],
    ['a listed company, its legal form abbreviated', { company: 'Rosneft Trading SA' }, '18299'],
  ];
  for (const [what, payload, entryId] of cases) {
    test(`${what} is a potential match with entry ${entryId}`, async () => {
      const response = await harness.app.inject({ method: 'POST', url: '/api/v1/prescreen', headers: tenant.headers, payload });
      const screening = response.json();
      assert.equal(screening.outcome, 'potential_match');
      assert.equal(screening.matches[0]?.entry_id, entryId, JSON.stringify(screening.matches[0]?.explanation.summary));
    });
  }

  test('a clean name is clear', async () => {
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/prescreen',
      headers: tenant.headers,
      payload: { subject: 'Margarethe Okonkwo-Lindqvist' },
    });
    assert.equal(response.json().outcome, 'clear');
  });

  const prescreen = async (payload: unknown) =>
    (await harness.app.inject({ method: 'POST', url: '/api/v1/prescreen', headers: tenant.headers, payload: payload as object })).json();

  test('a listed vessel is found by its IMO number under a new name, as a vessel', async () => {
    const screening = await prescreen({ subject: 'Caribbean Dawn', type: 'vessel', identifiers: [{ type: 'imo', value: 'IMO 7406784' }] });
    assert.equal(screening.outcome, 'potential_match');
    assert.deepEqual([screening.matches[0]?.entry_id, screening.matches[0]?.entry_name], ['4243', 'EBANO']);
    assert.match(screening.matches[0]?.explanation.found_by_identifier, /^IMO number 7406784 is on the entry/);
  });

  test('a listed person is found by a passport number under another spelling of the name', async () => {
    const screening = await prescreen({ subject: 'Mishel Sammaha', identifiers: [{ type: 'passport', value: 'PE385243', country: 'CA' }] });
    assert.equal(screening.outcome, 'potential_match');
    assert.equal(screening.matches[0]?.entry_id, '15640');
    assert.match(screening.matches[0]?.explanation.summary, /passport PE385243 \(CA\) is on the entry/);
  });

  test('an unlisted number, an undistinctive one and a passport of another issuer find nothing on their own', async () => {
    for (const identifiers of [
      [{ type: 'passport', value: 'X9999999' }],
      [{ type: 'national_id', value: '123' }],
      [{ type: 'passport', value: 'PE385243', country: 'FR' }],
    ]) {
      const screening = await prescreen({ subject: 'Margarethe Okonkwo-Lindqvist', identifiers });
      assert.equal(screening.outcome, 'clear', JSON.stringify(identifiers));
    }
  });
});
