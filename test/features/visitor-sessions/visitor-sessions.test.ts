/**
 * Check-in and visitor sessions through the API: screening at the door, sessions that follow
 * their case, desk updates, events, roll-calls and walls (country holds and prescreen reuse
 * have files of their own).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createTenant } from '../../helpers/credentials.ts';
import { buildTestApp } from '../../helpers/test-app.ts';
import { loadTestLists, SDN_ROWS, sdnList, uvlList } from '../../helpers/test-lists.ts';
import { openDesk } from './desk.ts';

/** A listed man whose passport is on his entry, for a visitor who carries it under another name. */
const PASSPORT_ROW = `30002,"HADDAD, Samir","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"Passport N7654321 (Lebanon)."`;

const desk = openDesk();
const { call, checkIn, update, session, eventsOf } = desk;

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
    assert.equal(after.history.at(-1).actor, `api_key:${desk.org.keyId}`);
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
    await call('POST', `/adjudication/${waiting.case_id}/disposition`, { disposition: 'CLEARED', reason: 'Agreed.' }, desk.secondReviewer);
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
    await loadTestLists(desk.harness, [sdnList([...SDN_ROWS, PASSPORT_ROW]), uvlList()]);
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
      await loadTestLists(desk.harness, [sdnList(), uvlList()]);
    }
  });

  test('every refusal is a 400 naming its field; nothing is stored', async () => {
    const before = await desk.harness.database.owner<{ n: number }>('SELECT count(*)::int AS n FROM visitor_sessions');
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
    assert.deepEqual(await desk.harness.database.owner('SELECT count(*)::int AS n FROM visitor_sessions'), before);
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
    const audits = await desk.harness.database.owner<{ action: string }>('SELECT action FROM audit_events WHERE target_id = $1 ORDER BY seq', [inside.id]);
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
    const other = await createTenant(desk.harness.database.owner, { tier: 'enterprise', admin: true });
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
    const defense = await createTenant(desk.harness.database.owner, { tier: 'defense' });
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
