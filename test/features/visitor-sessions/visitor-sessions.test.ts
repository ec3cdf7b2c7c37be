/**
 * Check-in and visitor sessions through the API: screening at the door, sessions that follow
 * their case, prescreens that stand in when fresh, desk updates, events, roll-calls and walls.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTenant, personHeaders, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists, SDN_ROWS, sdnList, uvlList } from '../../helpers/test-lists.ts';

/** A listed man whose passport is on his entry, for a visitor who carries it under another name. */
const PASSPORT_ROW = `30002,"HADDAD, Samir","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"Passport N7654321 (Lebanon)."`;

let harness: TestApp;
let org: TestTenant;
let secondReviewer: { authorization: string }; // a person: four eyes are two people

const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, headers = org.headers) =>
  harness.app.inject({ method, url: `/api/v1${url}`, headers, ...(payload && { payload }) });
const checkIn = async (visitor: object, extra: object = {}, as = org) => {
  const response = await call('POST', '/checkin', { visitor, site: 'HQ', ...extra }, as.headers);
  assert.equal(response.statusCode, 201, response.body);
  return response.json();
};
const update = (id: string, payload: object, headers = org.headers) => call('POST', `/sessions/${id}/update`, payload, headers);
const session = async (id: string) => (await call('GET', `/sessions/${id}`)).json();
const eventsOf = async (sessionId: string) =>
  (await harness.database.owner<{ type: string }>("SELECT type FROM event_outbox WHERE data->>'session_id' = $1 ORDER BY id", [sessionId])).map((e) => e.type);

before(async () => {
  harness = await buildTestApp({ env: { CHECKIN_PRESCREEN_FRESHNESS_HOURS: '24' } });
  org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
  secondReviewer = await personHeaders(harness.database.db, org.organizationId, 'adjudicator', 'second.reviewer@example.com');
  await loadTestLists(harness);
});
after(() => harness.close());

describe('check-in', () => {
  test('a clean visitor is checked in at once, screened, on site, with visitor.checked_in', async () => {
    const checked = await checkIn(
      { name: 'Ana Novak', company: 'Ljubljana Optics', citizenship: 'si', us_person_status: 'foreign_person', email: 'Ana.Novak@Example.com' },
      { host: { name: 'R. Alvarez' }, purpose: 'Audit', escort_required: true, badge_number: 'V-1', metadata: { gate: 'north' } },
    );
    assert.equal(checked.object, 'visitor_session');
    assert.deepEqual([checked.status, checked.on_site, checked.case_id, checked.prescreen_reused], ['checked_in', true, null, false]);
    assert.deepEqual(checked.visitor, {
      name: 'Ana Novak',
      company: 'Ljubljana Optics',
      citizenship: 'SI',
      us_person_status: 'foreign_person',
      email: 'ana.novak@example.com',
    });
    assert.ok(checked.checked_in_at);
    const screening = (await call('GET', `/screenings/${checked.screening_id}`)).json();
    assert.deepEqual([screening.source, screening.outcome, screening.input.nationality], ['checkin', 'clear', 'SI']);
    assert.deepEqual(await eventsOf(checked.id), ['visitor.checked_in']);
  });

  test('a listed visitor waits in pending_review on a case; clearing the case checks them in, in the same transaction', async () => {
    const waiting = await checkIn({ name: 'Karim Yusuf Abu-Ali', citizenship: 'LB', company: 'Door Test One' });
    assert.deepEqual([waiting.status, waiting.on_site, waiting.checked_in_at], ['pending_review', false, null]);
    assert.match(waiting.case_id, /^case_/);
    assert.deepEqual(await eventsOf(waiting.id), []);

    const cleared = await call('POST', `/adjudication/${waiting.case_id}/disposition`, {
      disposition: 'CLEARED',
      reason: 'Lebanese engineer, different person.',
    });
    assert.equal(cleared.statusCode, 200, cleared.body);
    const after = await session(waiting.id);
    assert.deepEqual([after.status, after.on_site], ['checked_in', true]);
    assert.equal(after.history.at(-1).note, 'case CLEARED');
    assert.equal(after.history.at(-1).actor, `api_key:${org.keyId}`);
    assert.deepEqual(await eventsOf(waiting.id), ['visitor.checked_in']);
  });

  test('an escalated case escalates the session (session.escalated); a denied one denies it, for good', async () => {
    const waiting = await checkIn({ name: 'Dmitri Sergeyevich Volkov', company: 'Door Test Two' });
    await call('POST', `/adjudication/${waiting.case_id}/disposition`, { disposition: 'ESCALATED', reason: 'FSO to decide.' });
    assert.equal((await session(waiting.id)).status, 'escalated');
    await call('POST', `/adjudication/${waiting.case_id}/disposition`, { disposition: 'DENIED', reason: 'Listed person.' });
    const denied = await session(waiting.id);
    assert.deepEqual([denied.status, denied.on_site], ['denied', false]);
    assert.deepEqual(await eventsOf(waiting.id), ['session.escalated']);
    const refused = await update(waiting.id, { status: 'checked_in' });
    assert.equal(refused.statusCode, 409);
    assert.deepEqual([refused.json().code, refused.json().allowed], ['invalid_transition', []]);
  });

  test('four-eyes: a pending decision leaves the visitor waiting; the confirmation lets them in', async () => {
    await call('PUT', '/adjudication/rules', { four_eyes: { cleared_min_score: 0.5 } });
    const waiting = await checkIn({ name: 'Karim Abu-Ali', company: 'Door Test Three' });
    assert.equal((await call('POST', `/adjudication/${waiting.case_id}/disposition`, { disposition: 'CLEARED', reason: 'Other man.' })).statusCode, 202);
    assert.equal((await session(waiting.id)).status, 'pending_review');
    await call('POST', `/adjudication/${waiting.case_id}/disposition`, { disposition: 'CLEARED', reason: 'Agreed.' }, secondReviewer);
    assert.equal((await session(waiting.id)).status, 'checked_in');
    await call('PUT', '/adjudication/rules', {});
  });

  test('the desk cannot check in a visitor whose case is open', async () => {
    const waiting = await checkIn({ name: 'Karim Y. Abu Ali', company: 'Door Test Four' });
    const refused = await update(waiting.id, { status: 'checked_in' });
    assert.equal(refused.statusCode, 409);
    assert.equal(refused.json().case_status, 'OPEN');
    assert.deepEqual(refused.json().allowed, ['denied', 'escalated']);
    assert.equal((await update(waiting.id, { status: 'denied', note: 'Turned away at the gate.' })).json().status, 'denied');
  });

  test('a visitor whose passport is on a listed entry waits in review though the names differ; the identifiers stay with the session', async () => {
    await loadTestLists(harness, [sdnList([...SDN_ROWS, PASSPORT_ROW]), uvlList()]);
    try {
      const waiting = await checkIn({ name: 'Ana Kovač', citizenship: 'SI', identifiers: [{ type: 'passport', value: 'n 765-4321', country: 'lb' }] });
      assert.equal(waiting.status, 'pending_review');
      assert.match(waiting.case_id, /^case_/);
      assert.deepEqual(waiting.visitor.identifiers, [{ type: 'passport', value: 'n 765-4321', country: 'LB' }]);
      const screening = (await call('GET', `/screenings/${waiting.screening_id}`)).json();
      assert.deepEqual(
        [screening.matches[0].entry_id, screening.matches[0].explanation.found_by_identifier],
        ['30002', 'passport N7654321 (LB) is on the entry (Passport N7654321 (LB))'],
      );
      const another = await checkIn({ name: 'Ana Kovač', citizenship: 'SI', identifiers: [{ type: 'passport', value: 'N7654321', country: 'SI' }] });
      assert.equal(another.status, 'checked_in', 'the same number from another issuer is another passport');
    } finally {
      await loadTestLists(harness, [sdnList(), uvlList()]);
    }
  });

  test('every refusal is a 400 naming its field; nothing is stored', async () => {
    const before = await harness.database.owner<{ n: number }>('SELECT count(*)::int AS n FROM visitor_sessions');
    const cases: [object, string[]][] = [
      [{ site: 'HQ' }, ['/visitor']],
      [{ visitor: { name: '  ' }, site: 'HQ' }, ['/visitor/name']],
      [{ visitor: { name: 'A B', email: 'not-an-email', us_person_status: 'alien' }, site: 'HQ' }, ['/visitor/email', '/visitor/us_person_status']],
      [{ visitor: { name: 'A B', citizenship: 'XX', company: '…' }, site: 'HQ' }, ['/visitor/citizenship', '/visitor/company']],
      [
        { visitor: { name: 'A B', date_of_birth: '2999-01-01' }, site: 'HQ', expected_departure_at: '2001-01-01T00:00:00Z' },
        ['/visitor/date_of_birth', '/expected_departure_at'],
      ],
      [{ visitor: { name: 'A B' }, site: 'HQ', prescreen_id: 'nope', shoe_size: 44 }, ['/prescreen_id', '/shoe_size']],
      [
        {
          visitor: {
            name: 'A B',
            identifiers: [
              { type: 'imo', value: '9187629' },
              { type: 'passport', value: ' ', country: 'QQ' },
            ],
          },
          site: 'HQ',
        },
        ['/visitor/identifiers/0/type', '/visitor/identifiers/1/value', '/visitor/identifiers/1/country'],
      ],
      [{ visitor: { name: 'A B', identifiers: [{ type: 'visa', value: 'V123456' }] }, site: 'HQ' }, ['/visitor/identifiers/0/type']],
    ];
    for (const [payload, pointers] of cases) {
      const response = await call('POST', '/checkin', payload);
      assert.equal(response.statusCode, 400, JSON.stringify(payload));
      assert.deepEqual(
        response
          .json()
          .errors.map((e: { pointer: string }) => e.pointer)
          .sort(),
        [...pointers].sort(),
        JSON.stringify(payload),
      );
    }
    assert.deepEqual(await harness.database.owner('SELECT count(*)::int AS n FROM visitor_sessions'), before);
  });
});

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
      await harness.database.owner('SELECT id FROM suppressions WHERE case_id = $1', [waiting.case_id]),
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
    const other = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
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

describe('prescreen reuse', () => {
  const visitor = { name: 'Harriet Quimby-Lindqvist', company: 'Aero Club', citizenship: 'SE', date_of_birth: '1980-04-01' };
  const prescreenOf = async (v: typeof visitor) =>
    (await call('POST', '/prescreen', { subject: v.name, company: v.company, nationality: v.citizenship, date_of_birth: v.date_of_birth })).json();

  test('a fresh prescreen of the same person stands for the screening; another person, an old one or changed lists do not', async () => {
    const prescreen = await prescreenOf(visitor);
    const reused = await checkIn(visitor, { prescreen_id: prescreen.id });
    assert.deepEqual([reused.screening_id, reused.prescreen_reused, reused.prescreen], [prescreen.id, true, { prescreen_id: prescreen.id, reused: true }]);

    const spelledOtherwise = await checkIn({ ...visitor, name: 'quimby-lindqvist harriet' }, { prescreen_id: prescreen.id });
    assert.equal(spelledOtherwise.prescreen_reused, true, 'case and word order do not make another person');

    const otherPerson = await checkIn({ ...visitor, date_of_birth: '1981-04-01' }, { prescreen_id: prescreen.id });
    assert.deepEqual([otherPerson.prescreen_reused, otherPerson.prescreen.reason], [false, 'not_same_person']);
    assert.notEqual(otherPerson.screening_id, prescreen.id);

    await harness.database.owner(
      "UPDATE screenings SET record = jsonb_set(record, '{created_at}', to_jsonb((now() - interval '25 hours')::text)) WHERE id = $1",
      [prescreen.id],
    );
    const stale = await checkIn(visitor, { prescreen_id: prescreen.id });
    assert.deepEqual([stale.prescreen_reused, stale.prescreen.reason], [false, 'stale']);

    const fresh = await prescreenOf(visitor);
    await loadTestLists(harness, [sdnList([...SDN_ROWS, `30001,"NEWLY LISTED TRADING",-0- ,"IRAN",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- `])]);
    const afterUpdate = await checkIn(visitor, { prescreen_id: fresh.id });
    assert.deepEqual([afterUpdate.prescreen_reused, afterUpdate.prescreen.reason], [false, 'lists_changed']);
    await loadTestLists(harness, [sdnList(), uvlList()]);

    const unknown = await checkIn(visitor, { prescreen_id: 'scr_00000000000000000000000000' });
    assert.deepEqual([unknown.prescreen_reused, unknown.prescreen.reason], [false, 'not_found']);
  });

  test('a prescreen stands for the door only with the same identifiers, however spaced', async () => {
    const person = { name: 'Harriet Quimby-Lindqvist', citizenship: 'SE', identifiers: [{ type: 'passport', value: 'SE 1234567', country: 'SE' }] };
    const prescreen = (await call('POST', '/prescreen', { subject: person.name, nationality: 'SE', identifiers: person.identifiers })).json();
    const same = await checkIn({ ...person, identifiers: [{ type: 'passport', value: 'se1234567', country: 'SE' }] }, { prescreen_id: prescreen.id });
    assert.equal(same.prescreen_reused, true);
    for (const identifiers of [undefined, [{ type: 'passport', value: 'SE7654321', country: 'SE' }]]) {
      const other = await checkIn({ ...person, identifiers }, { prescreen_id: prescreen.id });
      assert.deepEqual([other.prescreen_reused, other.prescreen.reason], [false, 'not_same_person'], JSON.stringify(identifiers));
    }
  });

  test('a reused prescreen with an open case puts the visitor in review on that case', async () => {
    const listed = { name: 'Karim Yusuf Abu-Ali', company: 'Reuse Test Co', citizenship: 'LB', date_of_birth: '1961' };
    const prescreen = (await call('POST', '/prescreen', { subject: listed.name, company: listed.company, nationality: 'LB', date_of_birth: '1961' })).json();
    assert.ok(prescreen.case_id);
    const waiting = await checkIn(listed, { prescreen_id: prescreen.id });
    assert.deepEqual([waiting.status, waiting.case_id, waiting.prescreen_reused], ['pending_review', prescreen.case_id, true]);
  });
});

describe('the desk', () => {
  test('check-out, metadata merged and removed, notes kept; each move emits its event and is audited', async () => {
    const inside = await checkIn({ name: 'Ada Lovelace-Byron' }, { metadata: { gate: 'north', parking: 'P1' } });
    const noted = await update(inside.id, { metadata: { parking: null, escort: 'J. Kim' }, note: 'Escort changed.' });
    assert.equal(noted.statusCode, 200, noted.body);
    assert.deepEqual(noted.json().metadata, { gate: 'north', escort: 'J. Kim' });
    assert.equal(noted.json().status, 'checked_in');
    const escalated = await update(inside.id, { status: 'escalated', note: 'Photographing a restricted area.' });
    assert.deepEqual([escalated.json().status, escalated.json().on_site], ['escalated', true]);
    const out = await update(inside.id, { status: 'checked_out' });
    assert.deepEqual([out.json().status, out.json().on_site], ['checked_out', false]);
    assert.ok(out.json().checked_out_at);
    assert.deepEqual(
      out.json().history.map((h: { to: string }) => h.to),
      ['checked_in', 'checked_in', 'escalated', 'checked_out'],
    );
    assert.deepEqual(await eventsOf(inside.id), ['visitor.checked_in', 'session.escalated', 'visitor.checked_out']);
    const audits = await harness.database.owner<{ action: string }>('SELECT action FROM audit_events WHERE target_id = $1 ORDER BY seq', [inside.id]);
    assert.deepEqual(
      audits.map((a) => a.action),
      ['visitor_session.created', 'visitor_session.updated', 'visitor_session.updated', 'visitor_session.updated'],
    );
    const again = await update(inside.id, { status: 'checked_in' });
    assert.deepEqual([again.statusCode, again.json().code], [409, 'invalid_transition']);
  });

  test('an update is refused whole: an empty body, an unknown status, metadata past its size', async () => {
    const inside = await checkIn({ name: 'Grace Hopper-Murray' });
    for (const [payload, pointer] of [
      [{}, ''],
      [{ status: 'teleported' }, '/status'],
      [{ metadata: Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`k${i}`, 'x'.repeat(480)])) }, '/metadata'],
    ] as [object, string][]) {
      const response = await update(inside.id, payload);
      assert.equal(response.statusCode, 400, JSON.stringify(payload));
      assert.equal(response.json().errors[0].pointer, pointer, JSON.stringify(payload));
    }
    assert.deepEqual((await session(inside.id)).metadata, {});
  });

  test('the roll-call: who is on site at a site, newest first, in stable pages', async () => {
    const site = `Roll-call ${Date.now()}`;
    const ids: string[] = [];
    for (const name of ['Alan Turing-Clarke', 'Joan Clarke-Murray', 'Tommy Flowers-Hill']) ids.push((await checkIn({ name }, { site })).id);
    await update(ids[1] as string, { status: 'checked_out' });
    const waiting = (await checkIn({ name: 'Karim Yusuf Abu-Ali', company: 'Roll-call Co' }, { site })).id;
    const onSite = (await call('GET', `/sessions?site=${encodeURIComponent(site)}&on_site=true`)).json();
    assert.deepEqual(
      onSite.data.map((s: { id: string }) => s.id),
      [ids[2], ids[0]],
    );
    const all: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { id: string }[]; next_cursor: string | null } = (
        await call('GET', `/sessions?site=${encodeURIComponent(site)}&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      ).json();
      all.push(...page.data.map((s: { id: string }) => s.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.deepEqual(all, [waiting, ...[...ids].reverse()]);
    const pending = (await call('GET', `/sessions?site=${encodeURIComponent(site)}&status=pending_review`)).json();
    assert.deepEqual(
      pending.data.map((s: { id: string }) => s.id),
      [waiting],
    );
    assert.equal((await call('GET', '/sessions?cursor=bogus')).statusCode, 400);
  });
});

describe('walls and tiers', () => {
  test("another organization's session is 404 and unchanged; its roll-call does not show ours", async () => {
    const other = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    const mine = await checkIn({ name: 'Hedy Lamarr-Kiesler' });
    for (const [method, url, payload] of [
      ['GET', `/sessions/${mine.id}`],
      ['POST', `/sessions/${mine.id}/update`, { status: 'checked_out' }],
    ] as ['GET' | 'POST', string, object?][]) {
      const response = await call(method, url, payload, other.headers);
      assert.deepEqual([response.statusCode, response.json().code], [404, 'not_found'], `${method} ${url}`);
    }
    assert.equal((await session(mine.id)).status, 'checked_in');
    assert.ok(!(await call('GET', '/sessions', undefined, other.headers)).json().data.some((s: { id: string }) => s.id === mine.id));
  });

  test('a Defense-tier key checks in, reads sessions and checks its visitor out', async () => {
    const defense = await createTenant(harness.database.owner, { tier: 'defense' });
    const checked = await checkIn({ name: 'Katherine Johnson-Goble' }, {}, defense);
    assert.equal((await call('GET', `/sessions/${checked.id}`, undefined, defense.headers)).statusCode, 200);
    const out = await update(checked.id, { status: 'checked_out' }, defense.headers);
    assert.deepEqual([out.statusCode, out.json().status], [200, 'checked_out']);
  });

  test('with no list loaded a check-in answers 503 lists_unavailable, never a false check-in', async () => {
    const bare = await buildTestApp();
    try {
      const tenant = await createTenant(bare.database.owner, { tier: 'defense' });
      const response = await bare.app.inject({
        method: 'POST',
        url: '/api/v1/checkin',
        headers: tenant.headers,
        payload: { visitor: { name: 'Jane Doe' }, site: 'HQ' },
      });
      assert.deepEqual([response.statusCode, response.json().code], [503, 'lists_unavailable']);
    } finally {
      await bare.close();
    }
  });
});
