/**
 * Country holds through the case: the rules choose which regimes hold and in which screenings, a
 * suppression never covers a country, and the evidence of a subject held with no name match names
 * the rule.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pdfPages, skipWithoutPdftotext } from '../../evidence/pdf-text.ts';
import { openReviewDesk } from './review-desk.ts';

const desk = openReviewDesk();
const { call, prescreen, caseOf, dispose, putRules, outbox } = desk;

describe('country holds', () => {
  const held = (screening: { holds: { regime: string; rule: string }[] }) => screening.holds.map((h) => `${h.regime} by ${h.rule}`);

  test('the rules choose which prohibited regimes hold, and in which screenings; the flags are reported either way', async () => {
    const china = await prescreen({ subject: 'Wang Lei', nationality: 'CN' });
    assert.deepEqual(
      [china.outcome, held(china)],
      ['potential_match', ['ITAR_126_1 by country_holds.prohibited_regimes']],
      'ITAR §126.1(d)(1) holds by default',
    );
    assert.ok(china.case_id);

    await putRules({ country_holds: { prohibited_regimes: ['OFAC_COMPREHENSIVE', 'OFAC_REGION'] } });
    const chinaNow = await prescreen({ subject: 'Wang Lei', nationality: 'CN' });
    assert.deepEqual([chinaNow.outcome, chinaNow.holds, chinaNow.case_id], ['clear', [], null]);
    assert.equal(chinaNow.country_flags[0].regime, 'ITAR_126_1');
    const iran = await prescreen({ subject: 'Reza Ahmadi', nationality: 'IR' });
    assert.deepEqual(held(iran), ['OFAC_COMPREHENSIVE by country_holds.prohibited_regimes']);

    await putRules({ country_holds: { sources: ['checkin'] } });
    const notHere = await prescreen({ subject: 'Reza Ahmadi', nationality: 'IR' });
    assert.deepEqual([notHere.outcome, notHere.holds, notHere.case_id], ['clear', [], null], 'prescreens are not held under these rules');
    await putRules({});
  });

  test('a suppression covers a name match, never the country: the case opens for the hold alone', async () => {
    const subject = { subject: 'Karim Yusuf Abu-Ali', nationality: 'IR', date_of_birth: '1961-02-12', company: 'Hold Suppression Test' };
    const first = await prescreen(subject);
    assert.deepEqual(
      [first.matches.length > 0, held(first)],
      [true, ['OFAC_COMPREHENSIVE by country_holds.prohibited_regimes', 'ITAR_126_1 by country_holds.prohibited_regimes']],
    );
    assert.equal((await dispose(first.case_id, { disposition: 'CLEARED', reason: 'Not the listed man (passport seen); licence on file.' })).statusCode, 200);

    const again = await prescreen(subject);
    assert.match(again.matches[0].suppressed_by, /^sup_/);
    assert.deepEqual([again.outcome, again.case_status], ['potential_match', 'OPEN']);
    const found = await caseOf(again.case_id);
    assert.deepEqual([found.score, found.lists, found.priority], [0, [], 'medium']);
    assert.deepEqual(found.priority_reasons, [
      'no name match alerts: low',
      'OFAC_COMPREHENSIVE (IR), ITAR_126_1 (IR): one step up',
      'country rule: OFAC_COMPREHENSIVE (IR) — nationality IR',
      'country rule: ITAR_126_1 (IR) — nationality IR',
    ]);
    const [opened] = await outbox('case.opened', 'case_id', again.case_id);
    assert.deepEqual(opened?.data, { case_id: again.case_id, screening_id: again.id, source: 'prescreen', status: 'OPEN', priority: 'medium' });
  });

  test('the evidence PDF of a subject held with no name match says so and names the rule', { skip: skipWithoutPdftotext() }, async () => {
    const screening = await prescreen({ subject: 'Reza Ahmadi', nationality: 'IR', reference: 'evidence-hold' });
    await dispose(screening.case_id, { disposition: 'DENIED', reason: 'No licence for this visit.' });
    const pdf = await call('GET', `/screenings/${screening.id}/evidence`, desk.org.headers);
    assert.equal(pdf.statusCode, 200);
    const text = pdfPages(pdf.rawPayload).join(' ').replace(/\s+/g, ' ');
    for (const expected of [
      'no name match; held for the country rule OFAC_COMPREHENSIVE (IR) — nationality IR; ITAR_126_1 (IR) — nationality IR',
      'Country holds',
      'country_holds.prohibited_regimes',
      screening.case_id,
      'No licence for this visit.',
    ]) {
      assert.ok(text.includes(expected), `${expected} in the evidence: ${text.slice(0, 2000)}`);
    }
  });
});
