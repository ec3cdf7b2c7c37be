/**
 * Cases through the API: opened by screenings, decided with dispositions (four-eyes included),
 * remembered as suppressions, and walled off between organizations (country holds:
 * case-country-holds.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pdfPages, skipWithoutPdftotext } from '../../evidence/pdf-text.ts';
import { createTenant } from '../../helpers/credentials.ts';
import { buildSecondApp } from '../../helpers/test-app.ts';
import { loadTestLists, SDN_ROWS, sdnList, uvlList } from '../../helpers/test-lists.ts';
import { openReviewDesk } from './review-desk.ts';

const desk = openReviewDesk();
const { call, prescreen, caseOf, dispose, putRules, bearer, outbox } = desk;

describe('opening cases', () => {
  test('a potential match opens a case holding its screening, priority, SLA and history; a clean name opens none', async () => {
    const screening = await prescreen({ subject: 'Karim Yusuf Abu-Ali', nationality: 'IR', reference: 'visit-1' });
    assert.equal(screening.outcome, 'potential_match');
    assert.match(screening.case_id, /^case_[0-9a-z]{26}$/);
    assert.equal(screening.case_status, 'OPEN');

    const found = await caseOf(screening.case_id);
    assert.equal(found.object, 'case');
    assert.deepEqual([found.status, found.screening_id, found.source, found.rules_version], ['OPEN', screening.id, 'prescreen', 0]);
    assert.equal(found.priority, 'critical', 'an exact SDN match on an Iranian national: high, +1 blocking list, +1 embargo');
    assert.equal(found.priority_reasons.length, 5, found.priority_reasons.join(' | '));
    assert.ok(found.priority_reasons.includes('country rule: OFAC_COMPREHENSIVE (IR) — nationality IR'), 'the country holds the subject beside the name match');
    assert.deepEqual(found.lists, ['OFAC_SDN']);
    assert.equal(Date.parse(found.sla_due_at) - Date.parse(found.created_at), 4 * 3_600_000, 'critical: 4 hours by default');
    assert.equal(found.overdue, false);
    assert.equal(found.screening.matches[0].entry_id, '10001');
    assert.match(found.screening.matches[0].explanation.summary, /ABU-'ALI/);
    assert.deepEqual(
      found.history.map((h: { action: string }) => h.action),
      ['opened'],
    );
    assert.equal(found.rules.version, 0);

    const [opened] = await outbox('case.opened', 'case_id', screening.case_id);
    assert.deepEqual(opened?.data, { case_id: screening.case_id, screening_id: screening.id, source: 'prescreen', status: 'OPEN', priority: 'critical' });

    const clean = await prescreen({ subject: 'Harriet Quimby-Lindqvist' });
    assert.deepEqual([clean.outcome, clean.case_id, clean.case_status], ['clear', null, null]);
    assert.equal((await call('GET', `/screenings/${screening.id}`, desk.org.headers)).json().case_status, 'OPEN');
  });

  test('the company of a person opens the case too, and the case keeps the rules version it was screened under', async () => {
    const first = await prescreen({ subject: 'Jane Placeholder', company: 'Northwind Maritime LLC' });
    assert.equal(first.matches[0].field, 'company');
    const { version } = await putRules({ sla_hours: { critical: 2, high: 12, medium: 48, low: 96 } });
    assert.ok(version >= 1);
    assert.equal((await caseOf(first.case_id)).rules_version, 0, 'rule changes apply to new screenings');
    const second = await prescreen({ subject: 'Jane Placeholder', company: 'Northwind Maritime LLC' });
    const found = await caseOf(second.case_id);
    assert.equal(found.rules_version, version);
    assert.equal(second.thresholds.rules_version, version);
    await putRules({});
  });
});

describe('dispositions', () => {
  test('OPEN → ESCALATED → DENIED; a closed case refuses every disposition with 409 invalid_transition naming what is allowed', async () => {
    const { case_id: id } = await prescreen({ subject: 'Dmitri Sergeyevich Volkov' });
    const escalated = await dispose(id, { disposition: 'ESCALATED', reason: 'Same name and year of birth; needs the FSO.' });
    assert.equal(escalated.statusCode, 200, escalated.body);
    assert.equal(escalated.json().status, 'ESCALATED');

    const twice = await dispose(id, { disposition: 'ESCALATED', reason: 'again' });
    assert.equal(twice.statusCode, 409);
    assert.equal(twice.json().code, 'invalid_transition');
    assert.deepEqual(twice.json().allowed, ['CLEARED', 'DENIED']);

    const denied = await dispose(id, { disposition: 'DENIED', reason: 'Confirmed by passport.' });
    assert.equal(denied.json().status, 'DENIED');
    assert.ok(denied.json().closed_at);
    for (const disposition of ['CLEARED', 'ESCALATED', 'DENIED']) {
      const refused = await dispose(id, { disposition, reason: 'too late' });
      assert.equal(refused.statusCode, 409, disposition);
      assert.deepEqual([refused.json().code, refused.json().allowed], ['invalid_transition', []]);
    }
    const history = (await caseOf(id)).history;
    assert.deepEqual(
      history.map((h: { action: string; to_status: string }) => `${h.action}:${h.to_status}`),
      ['opened:OPEN', 'disposition_applied:ESCALATED', 'disposition_applied:DENIED'],
    );
    assert.equal(history[2].reason, 'Confirmed by passport.');
    const events = await outbox('case.disposition_applied', 'case_id', id);
    assert.deepEqual(
      events.map((e) => e.data.status),
      ['ESCALATED', 'DENIED'],
    );
    // The case's changes: reads of it (case.viewed) reach the trail in batches, at times of their own.
    const audits = await desk.harness.database.owner<{ action: string }>(
      "SELECT action FROM audit_events WHERE target_id = $1 AND action <> 'case.viewed' ORDER BY seq",
      [id],
    );
    assert.deepEqual(
      audits.map((a) => a.action),
      ['case.disposition_applied', 'case.disposition_applied'],
    );
  });

  test('the evidence PDF carries the case history: who decided what, when and why', { skip: skipWithoutPdftotext() }, async () => {
    const screening = await prescreen({ subject: 'Karim Yusuf Abu-Ali', company: 'Evidence Test Foundry' });
    await dispose(screening.case_id, { disposition: 'ESCALATED', reason: 'Needs the facility security officer.' });
    await dispose(screening.case_id, { disposition: 'DENIED', reason: 'Passport matches the listed one.' });
    const pdf = await call('GET', `/screenings/${screening.id}/evidence`, desk.org.headers);
    assert.equal(pdf.statusCode, 200);
    const text = pdfPages(pdf.rawPayload).join(' ').replace(/\s+/g, ' ');
    for (const expected of [
      screening.case_id,
      'DENIED',
      'Needs the facility security officer.',
      'Passport matches the listed one.',
      `api_key ${desk.org.keyId}`,
    ]) {
      assert.ok(text.includes(expected), `${expected} in the evidence`);
    }
  });

  test('a reason is required, not blank, at most 2,000 characters; unknown fields and bad matches are named', async () => {
    const { case_id: id, matches } = await prescreen({ subject: 'Dmitri Volkov' });
    const cases: [object, string[]][] = [
      [{ disposition: 'CLEARED' }, ['/reason']],
      [{ disposition: 'CLEARED', reason: '   ' }, ['/reason']],
      [{ disposition: 'CLEARED', reason: 'x'.repeat(2001) }, ['/reason']],
      [{ disposition: 'APPROVED', reason: 'x' }, ['/disposition']],
      [{ disposition: 'CLEARED', reason: 'x', colour: 'red' }, ['/colour']],
      [{ disposition: 'CLEARED', reason: 'x', matches: [{ match_id: 'mat_0000000000000000000000000z', decision: 'false_positive' }] }, ['/matches/0/match_id']],
      [{ disposition: 'CLEARED', reason: 'x', matches: [{ match_id: matches[0].id, decision: 'maybe' }] }, ['/matches/0/decision']],
    ];
    for (const [payload, pointers] of cases) {
      const response = await dispose(id, payload);
      assert.equal(response.statusCode, 400, JSON.stringify(payload));
      assert.deepEqual(
        response.json().errors.map((e: { pointer: string }) => e.pointer),
        pointers,
        JSON.stringify(payload),
      );
    }
    assert.equal((await caseOf(id)).status, 'OPEN', 'nothing changed');
    const multiline = await dispose(id, { disposition: 'CLEARED', reason: 'Different person.\nPassport seen at the desk.' });
    assert.equal(multiline.statusCode, 200, multiline.body);
  });

  test('four-eyes: the first DENIED waits (202), the same actor cannot confirm it, a second person applies it', async () => {
    await putRules({ four_eyes: { denied: true } });
    const { case_id: id } = await prescreen({ subject: 'Karim Yusuf Abu-Ali', company: 'Another Placeholder Co' });
    const first = await dispose(id, { disposition: 'DENIED', reason: 'Matches DOB and nationality.' });
    assert.equal(first.statusCode, 202, first.body);
    assert.equal(first.json().status, 'OPEN');
    assert.equal(first.json().pending_decision.disposition, 'DENIED');
    assert.equal(first.json().pending_decision.actor, `api_key:${desk.org.keyId}`);
    assert.match(first.json().pending_decision.requires_second_reviewer, /every DENIED/);

    const same = await dispose(id, { disposition: 'DENIED', reason: 'Confirming my own decision.' });
    assert.equal(same.statusCode, 409);
    assert.equal(same.json().code, 'second_reviewer_required');

    const second = await dispose(id, { disposition: 'DENIED', reason: 'Agreed.' }, await bearer('adjudicator', 'second@example.com'));
    assert.equal(second.statusCode, 200, second.body);
    assert.deepEqual([second.json().status, second.json().pending_decision], ['DENIED', null]);
    assert.deepEqual(
      second.json().history.map((h: { action: string }) => h.action),
      ['opened', 'decision_pending', 'disposition_applied'],
    );
    const [audit] = await desk.harness.database.owner<{ details: { first_reviewer: string } }>(
      "SELECT details FROM audit_events WHERE target_id = $1 AND action = 'case.disposition_applied'",
      [id],
    );
    assert.equal(audit?.details.first_reviewer, `api_key:${desk.org.keyId}`);
    await putRules({});
  });

  test('four eyes are two people: refused for an API key and for the proposer through another credential, accepted for a second person, both named', async () => {
    await putRules({ four_eyes: { denied: true } });
    const ann = await bearer('admin', 'ann@example.com');
    const created = await call('POST', '/api-keys', ann, { name: 'ann-integration' });
    assert.equal(created.statusCode, 201, created.body);
    const annKey = { authorization: `Bearer ${created.json().key}` };
    const { case_id: id } = await prescreen({ subject: 'Karim Yusuf Abu-Ali', company: 'Third Placeholder Co' });

    const proposed = await dispose(id, { disposition: 'DENIED', reason: 'Listed: same DOB.' }, annKey);
    assert.equal(proposed.statusCode, 202, proposed.body);
    assert.equal(proposed.json().pending_decision.person, 'user:ann@example.com', 'a key answers to whoever created it');

    const byKey = await dispose(id, { disposition: 'DENIED', reason: 'Agreed.' }, desk.reviewerB.headers);
    assert.deepEqual([byKey.statusCode, byKey.json().code], [409, 'second_reviewer_required']);
    assert.match(byKey.json().detail, /never an API key/);
    const byAnn = await dispose(id, { disposition: 'DENIED', reason: 'Agreed.' }, ann);
    assert.deepEqual([byAnn.statusCode, byAnn.json().code], [409, 'second_reviewer_required'], 'the proposer through her own JWT');
    assert.match(byAnn.json().detail, /was created by you/);
    assert.equal((await caseOf(id)).status, 'OPEN', 'nothing applied');

    const byBob = await dispose(id, { disposition: 'DENIED', reason: 'Agreed: passport seen.' }, await bearer('adjudicator', 'bob@example.com'));
    assert.equal(byBob.statusCode, 200, byBob.body);
    assert.equal(byBob.json().status, 'DENIED');
    const applied = byBob.json().history.at(-1);
    assert.equal(applied.actor, 'user:bob@example.com');
    assert.deepEqual(applied.details.reviewers, ['user:ann@example.com', 'user:bob@example.com'], 'the history names both people');
    const [audit] = await desk.harness.database.owner<{ details: { reviewers: string[] } }>(
      "SELECT details FROM audit_events WHERE target_id = $1 AND action = 'case.disposition_applied'",
      [id],
    );
    assert.deepEqual(audit?.details.reviewers, ['user:ann@example.com', 'user:bob@example.com']);
    await putRules({});
  });

  test('a person with the viewer role sees a case but cannot decide it; an adjudicator can', async () => {
    const { case_id: id } = await prescreen({ subject: 'Dmitri S. Volkov' });
    const viewer = await bearer('viewer');
    assert.equal((await call('GET', `/adjudication/${id}`, viewer)).statusCode, 200);
    const refused = await dispose(id, { disposition: 'CLEARED', reason: 'x' }, viewer);
    assert.deepEqual([refused.statusCode, refused.json().code], [403, 'role_required']);
    const decided = await dispose(id, { disposition: 'CLEARED', reason: 'Different person.' }, await bearer('adjudicator'));
    assert.equal(decided.statusCode, 200);
    assert.equal(decided.json().history.at(-1).actor, 'user:adjudicator@example.com');
  });

  test('assignment and notes are kept in the history; a closed case cannot be assigned', async () => {
    const { case_id: id } = await prescreen({ subject: 'Karim Abu Ali' });
    const assigned = await call('POST', `/adjudication/${id}/assign`, desk.org.headers, { assignee: 'fso@example.com' });
    assert.equal(assigned.json().assignee, 'fso@example.com');
    const noted = await call('POST', `/adjudication/${id}/notes`, desk.org.headers, { text: 'Called the host.' });
    assert.equal(noted.statusCode, 201);
    const cleared = await dispose(id, { disposition: 'CLEARED', reason: 'Other person.', assignee: 'lead@example.com' });
    assert.equal(cleared.json().assignee, 'lead@example.com');
    assert.deepEqual(
      cleared.json().history.map((h: { action: string }) => h.action),
      ['opened', 'assigned', 'note', 'disposition_applied'],
    );
    assert.equal(cleared.json().history[2].reason, 'Called the host.');
    assert.equal((await call('POST', `/adjudication/${id}/assign`, desk.org.headers, { assignee: null })).statusCode, 409);
  });
});

describe('suppressions', () => {
  test('clearing a false positive quiets the same subject against the same entry, until the subject, the entry or time changes', async () => {
    const subject = { subject: 'Karim Yusuf Abu-Ali', nationality: 'LB', company: 'Suppression Test Bakery' };
    const first = await prescreen(subject);
    assert.ok(first.case_id, first.outcome);
    const cleared = await dispose(first.case_id, { disposition: 'CLEARED', reason: 'Lebanese baker with the same name: not the listed man.' });
    assert.equal(cleared.json().match_decisions[first.matches[0].id], 'false_positive');

    const again = await prescreen({ ...subject, subject: 'abu-ali karim yusuf' });
    assert.equal(again.outcome, 'potential_match', 'still reported');
    assert.deepEqual([again.case_id, again.case_status], [null, null], 'but no case');
    assert.match(again.matches[0].suppressed_by, /^sup_/);

    const otherBirth = await prescreen({ ...subject, date_of_birth: '1961-02-12' });
    assert.ok(otherBirth.case_id, 'another date of birth is another subject');
    assert.equal(otherBirth.matches[0].suppressed_by, null);

    // The list entry changes: the suppression lapses.
    await loadTestLists(desk.harness, [sdnList([SDN_ROWS[0]?.replace('Commander', 'General') as string, ...SDN_ROWS.slice(1)])]);
    const afterChange = await prescreen(subject);
    assert.ok(afterChange.case_id, 'a changed entry alerts again');
    assert.notEqual(afterChange.matches[0].entry_sha256, first.matches[0].entry_sha256);

    // Cleared again against the new entry, then the suppression expires.
    await dispose(afterChange.case_id, { disposition: 'CLEARED', reason: 'Still not him.' });
    assert.equal((await prescreen(subject)).case_id, null);
    await desk.harness.database.owner("UPDATE suppressions SET expires_at = now() - interval '1 second' WHERE case_id = $1", [afterChange.case_id]);
    assert.ok((await prescreen(subject)).case_id, 'an expired suppression no longer applies');
    await loadTestLists(desk.harness, [sdnList(), uvlList()]);
  });

  test('a match called a true match is not suppressed by clearing', async () => {
    const subject = { subject: 'Volkov Dmitri', company: 'Northwind Maritime LLC' };
    const first = await prescreen(subject);
    const byField = Object.fromEntries(first.matches.map((m: { field: string; id: string }) => [m.field, m.id]));
    await dispose(first.case_id, {
      disposition: 'CLEARED',
      reason: 'Person cleared; the company is the listed one but the visit is licensed.',
      matches: [{ match_id: byField.company, decision: 'true_match' }],
    });
    const again = await prescreen(subject);
    assert.ok(again.case_id, 'the company still alerts');
    const suppressed = Object.fromEntries(again.matches.map((m: { field: string; suppressed_by: string | null }) => [m.field, m.suppressed_by]));
    assert.match(suppressed.subject, /^sup_/);
    assert.equal(suppressed.company, null);
  });
});

describe('what each instance of the service keeps of the rules and suppressions', () => {
  test('a rules change or a clearing made through another instance (another process) applies to the very next screening here', async (t) => {
    const second = await buildSecondApp(desk.harness);
    t.after(() => second.close());
    const viaSecond = (method: 'POST' | 'PUT', url: string, payload: object) =>
      second.inject({ method, url: `/api/v1${url}`, headers: desk.org.headers, payload });
    const subject = { subject: 'Karim Yusuf Abu-Ali', nationality: 'JO', company: 'Second Instance Bakery' };

    // This instance screens a potential match, so it holds the rules and the suppressions it read.
    const before = await prescreen(subject);
    assert.ok(before.case_id);

    const rules = await viaSecond('PUT', '/adjudication/rules', { sla_hours: { critical: 3, high: 12, medium: 48, low: 96 } });
    assert.equal(rules.statusCode, 200, rules.body);
    const underNewRules = await prescreen(subject);
    assert.equal(underNewRules.thresholds.rules_version, rules.json().version);
    assert.notEqual(underNewRules.thresholds.rules_version, before.thresholds.rules_version);

    const cleared = await viaSecond('POST', `/adjudication/${underNewRules.case_id}/disposition`, {
      disposition: 'CLEARED',
      reason: 'A baker of the same name.',
    });
    assert.equal(cleared.statusCode, 200, cleared.body);
    const afterClearing = await prescreen(subject);
    assert.equal(afterClearing.case_id, null, 'the suppression written by the desk.other instance applies here');
    assert.match(afterClearing.matches[0].suppressed_by, /^sup_/);
    await putRules({});
  });

  test('a kept suppression still lapses when it expires, with nothing else changed', async () => {
    const subject = { subject: 'Karim Yusuf Abu-Ali', nationality: 'EG', company: 'Expiring Suppression Bakery' };
    const first = await prescreen(subject);
    assert.equal((await dispose(first.case_id, { disposition: 'CLEARED', reason: 'Not him.' })).statusCode, 200);
    await desk.harness.database.owner("UPDATE suppressions SET expires_at = now() + interval '1 second' WHERE case_id = $1", [first.case_id]);
    assert.equal((await prescreen(subject)).case_id, null, 'in force, and now kept by the service');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    assert.ok((await prescreen(subject)).case_id, 'expired: the kept copy is not used past its expiry');
  });
});

describe('walls between organizations', () => {
  test("another organization's case is 404 on every endpoint and stays as it was", async () => {
    const { case_id: id } = await prescreen({ subject: 'Dmitri Sergeyevich Volkov', nationality: 'RU' });
    assert.ok(id);
    const attempts: ['GET' | 'POST', string, object?][] = [
      ['GET', `/adjudication/${id}`],
      ['POST', `/adjudication/${id}/disposition`, { disposition: 'CLEARED', reason: 'x' }],
      ['POST', `/adjudication/${id}/assign`, { assignee: 'x@example.com' }],
      ['POST', `/adjudication/${id}/notes`, { text: 'x' }],
    ];
    for (const [method, url, payload] of attempts) {
      const response = await call(method, url, desk.other.headers, payload);
      assert.deepEqual([response.statusCode, response.json().code], [404, 'not_found'], `${method} ${url}`);
    }
    const queue = (await call('GET', '/adjudication/queue', desk.other.headers)).json();
    assert.ok(!queue.data.some((c: { id: string }) => c.id === id));
    const found = await caseOf(id);
    assert.deepEqual([found.status, found.assignee, found.history.length], ['OPEN', null, 1]);
  });

  test('a Defense-tier organization works the cases of its door, and gets tier_required on the rules', async () => {
    const defense = await createTenant(desk.harness.database.owner, { tier: 'defense', admin: true });
    const held = await call('POST', '/prescreen', defense.headers, { subject: 'Dmitri Sergeyevich Volkov', nationality: 'BY' });
    const id = held.json().case_id;
    assert.ok(id, 'a listed visitor opens a case in a Defense organization too');
    assert.equal(
      (await call('GET', '/adjudication/queue', defense.headers)).json().data.some((c: { id: string }) => c.id === id),
      true,
    );
    assert.equal((await call('GET', `/adjudication/${id}`, defense.headers)).statusCode, 200);
    const decided = await call('POST', `/adjudication/${id}/disposition`, defense.headers, { disposition: 'DENIED', reason: 'The listed person.' });
    assert.equal(decided.statusCode, 200, decided.body);
    for (const [method, url, payload] of [
      ['GET', '/adjudication/rules'],
      ['PUT', '/adjudication/rules', {}],
    ] as ['GET' | 'PUT', string, object?][]) {
      const response = await call(method, url, defense.headers, payload);
      assert.deepEqual([response.statusCode, response.json().code, response.json().required_tier], [403, 'tier_required', 'enterprise'], `${method} ${url}`);
    }
  });
});
