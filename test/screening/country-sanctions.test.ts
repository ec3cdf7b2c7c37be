import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countryCode } from '../../src/screening/countries.ts';
import { type CountryHold, countryHolds, describeHold, NO_HOLDS } from '../../src/screening/country-sanctions/holds.ts';
import { COUNTRY_SANCTIONS_REVIEWED_ON, CountryInputError, countryFlags } from '../../src/screening/country-sanctions/lookup.ts';
import { regionsInText } from '../../src/screening/country-sanctions/regions.ts';
import { COUNTRY_SANCTIONS } from '../../src/screening/country-sanctions/table.ts';

const NOW = new Date(`${COUNTRY_SANCTIONS_REVIEWED_ON}T12:00:00Z`);
const regimes = (flags: { regime: string }[]) => flags.map((f) => f.regime).sort();
/** An instant on a U.S. Eastern calendar day: noon Eastern is 16:00 or 17:00 UTC. */
const eastern = (day: string) => new Date(`${day}T17:00:00Z`);

describe('country flags', () => {
  test('Iran gets the OFAC embargo, ITAR §126.1(d)(1) and EAR E:1, each cited and sourced', () => {
    const flags = countryFlags({ countries: ['IR'] }, NOW);
    assert.deepEqual(regimes(flags), ['EAR_E1', 'ITAR_126_1', 'OFAC_COMPREHENSIVE']);
    const byRegime = Object.fromEntries(flags.map((f) => [f.regime, f]));
    assert.match(String(byRegime.OFAC_COMPREHENSIVE?.citation), /31 CFR Part 560/);
    assert.equal(byRegime.OFAC_COMPREHENSIVE?.severity, 'prohibited');
    assert.equal(byRegime.OFAC_COMPREHENSIVE?.effective_from, '1995-05-07');
    assert.match(String(byRegime.ITAR_126_1?.citation), /126\.1\(d\)\(1\)/);
    assert.match(String(byRegime.EAR_E1?.citation), /Country Group E:1/);
    for (const flag of flags) {
      assert.equal(flag.country, 'IR');
      assert.equal(flag.region, undefined);
      assert.match(flag.source_url, /^https:\/\//);
      assert.ok(flag.reason.length > 20, flag.reason);
    }
  });

  test('Cuba is flagged as both embargoed (OFAC, EAR E:2) and ITAR-proscribed; Russia only under ITAR (d)(2), as restricted', () => {
    assert.deepEqual(regimes(countryFlags({ countries: ['CU'] }, NOW)), ['EAR_E2', 'ITAR_126_1', 'OFAC_COMPREHENSIVE']);
    const russia = countryFlags({ countries: ['RU'] }, NOW);
    assert.deepEqual(
      russia.map((f) => [f.regime, f.severity]),
      [['ITAR_126_1', 'restricted']],
    );
    assert.match(String(russia[0]?.citation), /126\.1\(d\)\(2\)/);
  });

  test('a clean country gets no flag, and neither does Ukraine as a whole', () => {
    assert.deepEqual(countryFlags({ countries: ['FR', 'DE', 'US', 'GB', 'UA'] }, NOW), []);
  });

  test('several countries give each (country, regime) once, even when a code is repeated in another case', () => {
    const flags = countryFlags({ countries: ['KP', 'kp', ' KP ', 'FR'] }, NOW);
    assert.deepEqual(
      flags.map((f) => `${f.country}/${f.regime}`),
      ['KP/OFAC_COMPREHENSIVE', 'KP/ITAR_126_1', 'KP/EAR_E1'],
    );
  });

  test('codes are case-insensitive; names, retired codes and blanks are refused with a hint, never passed over', () => {
    assert.deepEqual(countryFlags({ countries: ['ir'] }, NOW), countryFlags({ countries: ['IR'] }, NOW));
    assert.throws(
      () => countryFlags({ countries: ['Iran'] }, NOW),
      (e: Error) => e instanceof CountryInputError && /use IR/.test(e.message),
    );
    assert.throws(() => countryFlags({ countries: ['UK'] }, NOW), /did you mean GB/);
    for (const bad of ['', 'ZZ', 'IRN', 'SU']) assert.throws(() => countryFlags({ countries: [bad] }, NOW), CountryInputError, bad);
    assert.throws(() => countryFlags({ countries: [], regions: ['donbas'] }, NOW), /known ids: .*crimea/);
    assert.throws(() => countryFlags({ countries: ['IR'] }, new Date('not a date')), CountryInputError);
  });

  test('every ISO 3166-1 code is accepted, Benin and Burkina Faso included', () => {
    for (const code of ['BJ', 'BF', 'XK', 'PS', 'SS', 'CW']) assert.doesNotThrow(() => countryFlags({ countries: [code] }, NOW), code);
  });
});

describe('dated entries', () => {
  test('Syria loses its OFAC embargo on 2025-07-01 (E.O. 14312) and keeps ITAR and EAR E:1', () => {
    assert.deepEqual(regimes(countryFlags({ countries: ['SY'] }, eastern('2025-06-30'))), ['EAR_E1', 'ITAR_126_1', 'OFAC_COMPREHENSIVE']);
    assert.deepEqual(regimes(countryFlags({ countries: ['SY'] }, eastern('2025-07-01'))), ['EAR_E1', 'ITAR_126_1']);
    assert.deepEqual(regimes(countryFlags({ countries: ['SY'] }, NOW)), ['EAR_E1', 'ITAR_126_1']);
  });

  test('the day is the U.S. Eastern day: 03:00 UTC on July 1 is still June 30 in Washington', () => {
    const lateJune30Eastern = new Date('2025-07-01T03:00:00Z');
    assert.ok(regimes(countryFlags({ countries: ['SY'] }, lateJune30Eastern)).includes('OFAC_COMPREHENSIVE'));
  });

  test('Nicaragua enters ITAR §126.1 on 2024-03-15; Cambodia leaves it on 2025-11-07', () => {
    assert.deepEqual(countryFlags({ countries: ['NI'] }, eastern('2024-03-14')), []);
    const nicaragua = countryFlags({ countries: ['NI'] }, eastern('2024-03-15'));
    assert.deepEqual(
      nicaragua.map((f) => [f.regime, f.effective_from, f.effective_from_exact]),
      [['ITAR_126_1', '2024-03-15', true]],
    );
    assert.deepEqual(regimes(countryFlags({ countries: ['KH'] }, eastern('2025-11-06'))), ['ITAR_126_1']);
    assert.deepEqual(countryFlags({ countries: ['KH'] }, eastern('2025-11-07')), []);
  });

  test('the Crimea embargo starts 2014-12-19, the DNR/LNR one 2022-02-21', () => {
    assert.deepEqual(countryFlags({ countries: [], regions: ['crimea'] }, eastern('2014-12-18')), []);
    assert.equal(countryFlags({ countries: [], regions: ['crimea'] }, eastern('2014-12-19')).length, 1);
    assert.deepEqual(countryFlags({ countries: [], regions: ['DNR', 'lnr'] }, eastern('2022-02-20')), []);
    assert.deepEqual(
      countryFlags({ countries: [], regions: ['DNR', 'lnr'] }, eastern('2022-02-21')).map((f) => f.region),
      ['dnr', 'lnr'],
    );
  });

  test('a row whose start was not confirmed flags earlier dates too instead of clearing them', () => {
    const china2010 = countryFlags({ countries: ['CN'] }, eastern('2010-01-01'));
    assert.deepEqual(
      china2010.map((f) => [f.regime, f.effective_from_exact]),
      [['ITAR_126_1', false]],
    );
  });
});

describe('regions', () => {
  test('a Crimean city in an address flags the Crimea region under Ukraine, in Latin or Cyrillic', () => {
    for (const text of ['ul. Lenina 12, Sevastopol 299011', '95000 Simferopol, Ukraine', 'Республика Крым, г. Симферополь', 'KERCH']) {
      const flags = countryFlags({ countries: ['RU'], text }, NOW);
      const region = flags.filter((f) => f.region);
      assert.deepEqual(
        region.map((f) => [f.country, f.region, f.regime, f.severity]),
        [['UA', 'crimea', 'OFAC_REGION', 'prohibited']],
        text,
      );
      assert.ok(region[0]?.matched_term, text);
    }
  });

  test('"Donetsk" alone flags the so-called DNR region for review, never Ukraine as a whole', () => {
    const flags = countryFlags({ countries: ['UA'], text: 'Donetsk' }, NOW);
    assert.deepEqual(
      flags.map((f) => [f.country, f.region, f.regime]),
      [['UA', 'dnr', 'OFAC_REGION']],
    );
    assert.match(String(flags[0]?.reason), /not the whole Donetsk oblast/);
    assert.equal(flags[0]?.matched_term, 'donetsk');
  });

  test('Luhansk is found under both spellings; a region named twice is flagged once', () => {
    assert.deepEqual(
      regionsInText('Lugansk').map((m) => m.region),
      ['lnr'],
    );
    assert.deepEqual(
      regionsInText('Luhansk oblast').map((m) => m.region),
      ['lnr'],
    );
    const flags = countryFlags({ countries: [], regions: ['lnr', 'UA-09'], text: 'Luhansk, Alchevsk' }, NOW);
    assert.deepEqual(
      flags.map((f) => f.region),
      ['lnr'],
    );
    assert.equal(flags[0]?.matched_term, undefined, 'a region the caller named needs no matched term');
  });

  test('whole words only, and no acronyms or look-alike places', () => {
    for (const text of ['Michigan DNR, Lansing', 'DPRK', 'Sebastopol, CA 95472', 'Donetskiy Lane 4, Kyiv', 'Crimeawatch Ltd', 'Paris, France']) {
      assert.deepEqual(regionsInText(text), [], text);
    }
  });

  test('derived forms and Crimean postal codes, as the SDN addresses write them; a postal code alone is not enough', () => {
    for (const text of [
      '9 Chapayeva str., Vilino, Bakhchisarayski district 98433, Ukraine',
      'ul. Baturina d. 44, Livadia 298655, Ukraine',
      '14 Gorky Street, Theodosia 98100, Ukraine',
    ]) {
      assert.deepEqual(
        regionsInText(text).map((m) => m.region),
        ['crimea'],
        text,
      );
    }
    assert.deepEqual(regionsInText('ul. Baturina d. 44, Livadia 298655'), []);
    assert.deepEqual(regionsInText('1 Main St, Olympia, WA 98501'), []);
  });

  test('ISO 3166-2 codes are accepted as region ids', () => {
    assert.deepEqual(
      countryFlags({ countries: [], regions: ['UA-43', 'ua-40', 'UA-14'] }, NOW).map((f) => f.region),
      ['crimea', 'dnr'],
    );
  });
});

describe('the table itself', () => {
  const day = /^\d{4}-\d{2}-\d{2}$/;

  test('every row has a reason, a citation, an https source and valid dates', () => {
    for (const row of COUNTRY_SANCTIONS) {
      const id = `${row.country}/${row.region ?? ''}/${row.regime}`;
      assert.ok(row.reason.trim().length > 20, id);
      assert.match(row.citation, /\b(CFR|E\.O\.)\b/, id);
      assert.doesNotThrow(() => new URL(row.sourceUrl), id);
      assert.match(row.sourceUrl, /^https:\/\//, id);
      assert.match(row.from, day, id);
      assert.ok(!Number.isNaN(Date.parse(row.from)), id);
      if (row.until) assert.ok(row.until > row.from, `${id}: until must follow from`);
      assert.ok(row.from <= COUNTRY_SANCTIONS_REVIEWED_ON, `${id}: from is after the review date`);
    }
  });

  test('every country is an ISO code, every region sits in Ukraine under OFAC_REGION, and no (country, region, regime) overlaps in time', () => {
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    const seen = new Map<string, { from: string; until?: string }[]>();
    for (const row of COUNTRY_SANCTIONS) {
      assert.equal(countryCode(names.of(row.country) as string), row.country, row.country);
      const key = `${row.country}/${row.region ?? ''}/${row.regime}`;
      assert.equal(Boolean(row.region), row.regime === 'OFAC_REGION', `${key}: regions and only regions are OFAC_REGION`);
      if (row.region) assert.equal(row.country, 'UA', key);
      for (const other of seen.get(key) ?? []) {
        assert.ok((other.until && other.until <= row.from) || (row.until && row.until <= other.from), `${key} has overlapping rows`);
      }
      seen.set(key, [...(seen.get(key) ?? []), row]);
    }
  });

  test('the review date is a date, and the table is frozen', () => {
    assert.match(COUNTRY_SANCTIONS_REVIEWED_ON, day);
    assert.ok(Object.isFrozen(COUNTRY_SANCTIONS));
  });
});

describe('country holds', () => {
  const DEFAULT_POLICY = { escalate: [], prohibited: ['OFAC_COMPREHENSIVE', 'OFAC_REGION', 'ITAR_126_1', 'EAR_E1', 'EAR_E2'] } as const;

  test('a prohibited flag holds by the table; a restricted one only when the rules escalate its regime', () => {
    const flags = countryFlags({ countries: ['IR', 'RU'] }, NOW);
    const byTable = countryHolds(flags, { nationality: 'IR', country: 'RU' }, DEFAULT_POLICY);
    assert.deepEqual(
      byTable.map((h) => [h.regime, h.country, h.rule, h.detail]),
      [
        ['OFAC_COMPREHENSIVE', 'IR', 'country_holds.prohibited_regimes', 'nationality IR'],
        ['ITAR_126_1', 'IR', 'country_holds.prohibited_regimes', 'nationality IR'],
      ],
    );
    const escalated = countryHolds(flags, { nationality: 'IR', country: 'RU' }, { ...DEFAULT_POLICY, escalate: ['ITAR_126_1'] });
    assert.deepEqual(
      escalated.map((h) => [h.regime, h.country, h.severity, h.rule, h.detail]),
      [
        ['OFAC_COMPREHENSIVE', 'IR', 'prohibited', 'country_holds.prohibited_regimes', 'nationality IR'],
        ['ITAR_126_1', 'IR', 'prohibited', 'escalation.country_flags', 'nationality IR'],
        ['ITAR_126_1', 'RU', 'restricted', 'escalation.country_flags', 'country RU'],
      ],
    );
    assert.deepEqual(countryHolds(flags, { nationality: 'IR' }, NO_HOLDS), []);
    assert.deepEqual(countryHolds(countryFlags({ countries: ['FR'] }, NOW), { nationality: 'FR' }, DEFAULT_POLICY), []);
  });

  test('a region found in the address says which words named it; a hold reads in one line', () => {
    const [hold] = countryHolds(countryFlags({ countries: ['UA'], text: 'ul. Lenina 5, Simferopol' }, NOW), { country: 'UA' }, DEFAULT_POLICY);
    assert.deepEqual(hold, {
      kind: 'country',
      regime: 'OFAC_REGION',
      country: 'UA',
      region: 'crimea',
      severity: 'prohibited',
      rule: 'country_holds.prohibited_regimes',
      detail: 'address names "simferopol" (crimea)',
    });
    assert.equal(describeHold(hold as CountryHold), 'OFAC_REGION (crimea) — address names "simferopol" (crimea)');
    const [both] = countryHolds(countryFlags({ countries: ['KP'] }, NOW), { country: 'KP', nationality: 'KP' }, DEFAULT_POLICY);
    assert.equal(describeHold(both as CountryHold), 'OFAC_COMPREHENSIVE (KP) — nationality and country KP');
  });
});
