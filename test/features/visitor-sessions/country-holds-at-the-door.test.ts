/**
 * Country holds at the door: a national of a sanctioned country whose name matches nothing waits
 * on a case naming the country rule, as the organization's rules decide, and a prescreen that was
 * not held for a flag the door holds does not stand for the door.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTenant } from '../../helpers/credentials.ts';
import { openDesk } from './desk.ts';

const desk = openDesk();
const { call, checkIn, update, session, eventsOf } = desk;

describe('country holds at the door', () => {
  const caseOf = async (id: string) => (await call('GET', `/adjudication/${id}`)).json();
  const screeningOf = async (id: string) => (await call('GET', `/screenings/${id}`)).json();
  const dispose = (id: string, payload: object) => call('POST', `/adjudication/${id}/disposition`, payload);
  const putRules = async (rules: object) => assert.equal((await call('PUT', '/adjudication/rules', rules)).statusCode, 200);

  test('a national of a comprehensively sanctioned country whose name matches nothing waits on a case naming the country rule; clearing it checks them in', async () => {
    const waiting = await checkIn({ name: 'Reza Ahmadi', citizenship: 'IR' });
    assert.deepEqual([waiting.status, waiting.on_site, waiting.checked_in_at], ['pending_review', false, null]);
    assert.match(waiting.case_id, /^case_/);
    assert.deepEqual(await eventsOf(waiting.id), []);

    const screening = await screeningOf(waiting.screening_id);
    assert.deepEqual([screening.source, screening.outcome, screening.matches, screening.case_id], ['checkin', 'potential_match', [], waiting.case_id]);
    assert.deepEqual(
      screening.holds.map((h: { regime: string }) => h.regime),
      ['OFAC_COMPREHENSIVE', 'ITAR_126_1'],
    );

    const opened = await caseOf(waiting.case_id);
    assert.deepEqual([opened.status, opened.priority, opened.score, opened.lists, opened.source], ['OPEN', 'medium', 0, [], 'checkin']);
    assert.ok(opened.priority_reasons.includes('country rule: OFAC_COMPREHENSIVE (IR) — nationality IR'), opened.priority_reasons.join(' | '));
    assert.ok(opened.priority_reasons.includes('country rule: ITAR_126_1 (IR) — nationality IR'));
    assert.equal(opened.priority_reasons[0], 'no name match alerts: low');

    const refused = await update(waiting.id, { status: 'checked_in' });
    assert.deepEqual([refused.statusCode, refused.json().case_status], [409, 'OPEN'], 'the desk cannot step around the hold');

    const byMatch = await dispose(waiting.case_id, {
      disposition: 'CLEARED',
      reason: 'x',
      matches: [{ match_id: 'mat_00000000000000000000000000', decision: 'false_positive' }],
    });
    assert.equal(byMatch.statusCode, 400);
    assert.equal(byMatch.json().errors[0].pointer, '/matches/0/match_id');
    assert.match(byMatch.json().errors[0].detail, /no name match/);

    const cleared = await dispose(waiting.case_id, { disposition: 'CLEARED', reason: 'Dual national; export licence on file for this visit.' });
    assert.equal(cleared.statusCode, 200, cleared.body);
    const inside = await session(waiting.id);
    assert.deepEqual([inside.status, inside.on_site, inside.history.at(-1).note], ['checked_in', true, 'case CLEARED']);
    assert.deepEqual(await eventsOf(waiting.id), ['visitor.checked_in']);
    assert.deepEqual(
      await desk.harness.database.owner('SELECT id FROM suppressions WHERE case_id = $1', [waiting.case_id]),
      [],
      'a country hold has no match to suppress',
    );

    const nextVisit = await checkIn({ name: 'Reza Ahmadi', citizenship: 'IR' });
    assert.equal(nextVisit.status, 'pending_review', 'clearing one visit does not clear the country for the next');
    assert.notEqual(nextVisit.case_id, waiting.case_id);
  });

  test('a DENIED case denies the held visitor, for good', async () => {
    const waiting = await checkIn({ name: 'Ri Yong-su', citizenship: 'KP', country: 'KP' });
    assert.equal(waiting.status, 'pending_review');
    const screening = await screeningOf(waiting.screening_id);
    assert.equal(screening.holds[0].detail, 'nationality and country KP');
    assert.equal((await dispose(waiting.case_id, { disposition: 'DENIED', reason: 'No licence for a national of North Korea.' })).statusCode, 200);
    const denied = await session(waiting.id);
    assert.deepEqual([denied.status, denied.on_site], ['denied', false]);
    assert.deepEqual([(await update(waiting.id, { status: 'checked_in' })).statusCode], [409]);
  });

  test("with the regime in the rules' escalation.country_flags the case opens ESCALATED, critical, at any severity; clearing it lets the visitor in", async () => {
    await putRules({ escalation: { country_flags: ['OFAC_COMPREHENSIVE', 'ITAR_126_1'] } });
    try {
      const held = await checkIn({ name: 'Reza Ahmadi', citizenship: 'IR' });
      assert.deepEqual([held.status, held.on_site], ['escalated', false]);
      assert.deepEqual(await eventsOf(held.id), ['session.escalated']);
      const opened = await caseOf(held.case_id);
      assert.deepEqual([opened.status, opened.priority], ['ESCALATED', 'critical']);
      assert.ok(opened.priority_reasons.includes('country rule: OFAC_COMPREHENSIVE (IR) — nationality IR'), opened.priority_reasons.join(' | '));
      assert.ok(opened.priority_reasons.includes('escalation rule: country flag OFAC_COMPREHENSIVE, ITAR_126_1'), opened.priority_reasons.join(' | '));
      assert.deepEqual(
        (await screeningOf(held.screening_id)).holds.map((h: { rule: string }) => h.rule),
        ['escalation.country_flags', 'escalation.country_flags'],
      );

      // Russia is only restricted under ITAR (d)(2): held because the rules name the regime, not by default.
      const restricted = await checkIn({ name: 'Olga Smirnova', citizenship: 'RU' });
      assert.equal(restricted.status, 'escalated');
      assert.ok((await caseOf(restricted.case_id)).priority_reasons.includes('country rule: ITAR_126_1 (RU) — nationality RU'));

      assert.equal((await dispose(held.case_id, { disposition: 'CLEARED', reason: 'Licence DSP-5 covers the visit.' })).statusCode, 200);
      assert.deepEqual([(await session(held.id)).status, (await session(held.id)).on_site], ['checked_in', true]);
    } finally {
      await putRules({});
    }
  });

  test('an ordinary national of an unflagged country, or of one the rules do not hold, is checked in at once', async () => {
    const ordinary = await checkIn({ name: 'Reza Ahmadi', citizenship: 'NO' });
    assert.deepEqual([ordinary.status, ordinary.case_id], ['checked_in', null]);
    assert.deepEqual([(await screeningOf(ordinary.screening_id)).outcome, (await screeningOf(ordinary.screening_id)).holds], ['clear', []]);

    await putRules({ country_holds: { prohibited_regimes: [] } });
    try {
      const notHeld = await checkIn({ name: 'Reza Ahmadi', citizenship: 'IR' });
      assert.deepEqual([notHeld.status, notHeld.case_id], ['checked_in', null], 'the organization turned the default off');
      const screening = await screeningOf(notHeld.screening_id);
      assert.deepEqual([screening.outcome, screening.holds], ['clear', []]);
      assert.ok(
        screening.country_flags.some((f: { regime: string }) => f.regime === 'OFAC_COMPREHENSIVE'),
        'the flag is still reported',
      );
    } finally {
      await putRules({});
    }
  });

  test('a prescreen of a held national stands at the door on its case', async () => {
    const prescreen = (await call('POST', '/prescreen', { subject: 'Reza Ahmadi', nationality: 'IR', company: 'Held Prescreen Co' })).json();
    assert.deepEqual([prescreen.outcome, prescreen.case_status], ['potential_match', 'OPEN']);
    const waiting = await checkIn({ name: 'Reza Ahmadi', citizenship: 'IR', company: 'Held Prescreen Co' }, { prescreen_id: prescreen.id });
    assert.deepEqual([waiting.prescreen_reused, waiting.status, waiting.case_id], [true, 'pending_review', prescreen.case_id]);
  });

  test('a prescreen the rules did not hold cannot stand at a door that holds: the visitor is screened again and held', async () => {
    await putRules({ country_holds: { sources: ['checkin'] } });
    try {
      const prescreen = (await call('POST', '/prescreen', { subject: 'Reza Ahmadi', nationality: 'IR', company: 'Lax Prescreen Co' })).json();
      assert.deepEqual([prescreen.outcome, prescreen.case_id], ['clear', null], 'prescreens are not held under these rules');
      const waiting = await checkIn({ name: 'Reza Ahmadi', citizenship: 'IR', company: 'Lax Prescreen Co' }, { prescreen_id: prescreen.id });
      assert.deepEqual([waiting.prescreen_reused, waiting.prescreen.reason, waiting.status], [false, 'country_hold', 'pending_review']);
      assert.notEqual(waiting.screening_id, prescreen.id);
      const ordinary = (await call('POST', '/prescreen', { subject: 'Reza Ahmadi', nationality: 'NO', company: 'Lax Prescreen Co' })).json();
      assert.equal(
        (await checkIn({ name: 'Reza Ahmadi', citizenship: 'NO', company: 'Lax Prescreen Co' }, { prescreen_id: ordinary.id })).prescreen_reused,
        true,
      );
    } finally {
      await putRules({});
    }
  });

  test("another organization's country case answers 404 and is left open", async () => {
    const waiting = await checkIn({ name: 'Reza Ahmadi', citizenship: 'IR', company: 'Wall Test' });
    const other = await createTenant(desk.harness.database.owner, { tier: 'enterprise', admin: true });
    for (const [method, url, payload] of [
      ['GET', `/adjudication/${waiting.case_id}`],
      ['POST', `/adjudication/${waiting.case_id}/disposition`, { disposition: 'CLEARED', reason: 'Not mine.' }],
    ] as ['GET' | 'POST', string, object?][]) {
      const response = await call(method, url, payload, other.headers);
      assert.deepEqual([response.statusCode, response.json().code], [404, 'not_found'], `${method} ${url}`);
    }
    assert.equal((await session(waiting.id)).status, 'pending_review');
  });
});
