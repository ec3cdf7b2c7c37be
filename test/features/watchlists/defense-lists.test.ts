/**
 * A list with no machine-readable feed kept as a watchlist, as a defense contractor must: the DoD
 * Section 1260H list of Chinese military companies (OpenSanctions' transcription, CC BY-NC, read
 * from the shared list data and never copied here), its current rows imported through the API,
 * then the companies screened as vendors by their names as transcribed and as the list prints them
 * (with the short name in brackets): each is found on the watchlist, as the entry it is.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { readCsv } from '../../../src/screening/lists/csv.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { listDataDir, skipWithoutListData } from '../../helpers/list-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists } from '../../helpers/test-lists.ts';

const FILE = 'us_defense_lists_2026-08_opensanctions/dod_1260h_chinese_military_companies.csv';
/** Every how-many-th company is screened: enough to cover the list's kinds of names, in one vendor batch. */
const SAMPLE_EVERY = 8;

type Company = { printed: string; name: string; aliases: string[]; listedOn: string };

/** The rows still in force (no end date), as the list prints each name and as OpenSanctions cleaned it. */
function currentCompanies(): Company[] {
  const [header, ...rows] = [...readCsv(fs.readFileSync(path.join(listDataDir(), FILE), 'utf8'))];
  const column = (name: string) => (header ?? []).indexOf(name);
  const cell = (row: string[], name: string) => (row[column(name)] ?? '').trim();
  return rows
    .filter((row) => cell(row, 'Clean Name') !== '' && cell(row, 'End date') === '')
    .map((row) => ({
      printed: cell(row, 'Name').replace(/\*$/, ''),
      name: cell(row, 'Clean Name'),
      aliases: [cell(row, 'Alias'), cell(row, 'Previous Name')]
        .flatMap((value) => value.split(';'))
        .map((alias) => alias.trim())
        .filter((alias) => alias !== ''),
      listedOn: cell(row, 'Start date'),
    }));
}

type VendorResult = { screening: { matches: { list: string; entry_name: string; watchlist?: { severity: string } }[] } };

describe('the DoD 1260H list kept as a watchlist', { skip: skipWithoutListData() }, () => {
  let harness: TestApp;
  let org: TestTenant;
  let companies: Company[];
  const call = (method: 'POST' | 'PUT', url: string, payload: object) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers: { ...org.headers, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });

  before(async () => {
    harness = await buildTestApp();
    await loadTestLists(harness);
    org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    companies = currentCompanies();
    const watchlist = await call('POST', '/watchlists', { slug: 'dod-1260h', name: 'DoD Section 1260H' });
    assert.equal(watchlist.statusCode, 201, watchlist.body);
    const entries = companies.map((company, i) => ({
      external_id: `1260h-${i}`,
      type: 'organization',
      name: company.name,
      aliases: [...new Set(company.aliases)].slice(0, 20),
      countries: ['CN'],
      reason: `Identified as a Chinese military company under Section 1260H (listed ${company.listedOn}).`,
      severity: 'orange',
    }));
    const imported = await call('PUT', `/watchlists/${watchlist.json().id}/entries?mode=replace`, { entries });
    assert.equal(imported.statusCode, 200, imported.body);
    assert.equal(imported.json().added, companies.length);
  });
  after(() => harness.close());

  const screenVendors = async (names: string[]): Promise<VendorResult[]> => {
    const response = await call('POST', '/vendors/screen', { vendors: names.map((name) => ({ name, country: 'CN' })) });
    assert.equal(response.statusCode, 201, response.body);
    return response.json().results;
  };
  const sample = () => companies.filter((_, i) => i % SAMPLE_EVERY === 0);
  /** The companies whose screening did not find their own entry on the watchlist. */
  const missed = (results: VendorResult[], expected: Company[]) =>
    expected
      .filter((company, i) => !results[i]?.screening.matches.some((m) => m.list === 'ORG:dod-1260h' && m.entry_name === company.name))
      .map((company) => company.name);

  test('every current row is imported, and a sample of the companies screened by name each meets its own entry', async () => {
    assert.ok(companies.length > 300, `${companies.length} current rows`);
    const expected = sample();
    const results = await screenVendors(expected.map((company) => company.name));
    assert.deepEqual(missed(results, expected), []);
    assert.ok(results.every((r) => r.screening.matches.some((m) => m.watchlist?.severity === 'orange')));
  });

  test('the names as the list prints them, short names in brackets, meet the same entries', async () => {
    const expected = sample().filter((company) => company.printed !== company.name);
    assert.ok(expected.length > 10, `${expected.length} printed names differ from the clean ones`);
    assert.deepEqual(missed(await screenVendors(expected.map((company) => company.printed)), expected), []);
  });
});
