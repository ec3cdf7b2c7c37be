/**
 * POST /prescreen and GET /screenings/{id} on a real database, against the hand-written OFAC
 * fixture (vendors: vendors.test.ts; the real SDN file: real-sdn.test.ts).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { canonicalJson } from '../../../src/canonical-json.ts';
import { pdfPages, skipWithoutPdftotext } from '../../evidence/pdf-text.ts';
import { createTenant } from '../../helpers/credentials.ts';
import { loadSdn } from '../../helpers/sdn-loading.ts';
import { fixture, openScreeningApp } from './screening-app.ts';

describe('screening endpoints', () => {
  const app = openScreeningApp();
  const { post, prescreen } = app;

  test('with no list loaded a screening answers 503 lists_unavailable, never clear', async () => {
    for (const payload of [{ subject: 'Jane Doe' }, { subject: 'Jane Doe', lists: ['OFAC_SDN'] }]) {
      const response = await prescreen(payload);
      assert.equal(response.statusCode, 503, JSON.stringify(payload));
      assert.equal(response.json().code, 'lists_unavailable');
    }
    const vendors = await post('/api/v1/vendors/screen', app.enterprise, { vendors: [{ name: 'Acme' }] });
    assert.equal(vendors.statusCode, 503);
  });

  describe('with the fixture SDN loaded', () => {
    before(async () => {
      await loadSdn(app.harness, fixture('ofac/sdn.csv'), fixture('ofac/alt.csv'));
    });

    test('a listed name is a potential match, explained, stored and readable by id', async () => {
      const response = await prescreen({ subject: 'Karim Yusuf Abu-Ali', country: 'ir', date_of_birth: '1961-02-12', reference: 'visit-42' });
      assert.equal(response.statusCode, 201);
      const screening = response.json();
      assert.equal(response.headers.location, `/api/v1/screenings/${screening.id}`);
      assert.equal(screening.object, 'screening');
      assert.equal(screening.outcome, 'potential_match');
      assert.equal(screening.case_status, 'OPEN');
      assert.match(screening.case_id, /^case_/);
      const [match] = screening.matches;
      assert.deepEqual([match.list, match.entry_id, match.field], ['OFAC_SDN', '10001', 'subject']);
      assert.match(match.id, /^mat_/);
      assert.match(match.explanation.summary, /ABU-'ALI, Karim Yusuf/);
      assert.ok(match.explanation.qualifiers.some((q: { factor: string; effect: string }) => q.factor === 'date_of_birth' && q.effect === 'corroborates'));
      assert.equal(match.list_version, screening.list_versions[0].version_id);
      assert.deepEqual(screening.input.country, 'IR');
      assert.ok(
        screening.country_flags.some((f: { regime: string }) => f.regime === 'OFAC_COMPREHENSIVE'),
        'Iran is flagged',
      );
      assert.equal(screening.reference, 'visit-42');
      assert.match(screening.record_sha256, /^[0-9a-f]{64}$/);

      const read = await app.harness.app.inject({ url: `/api/v1/screenings/${screening.id}`, headers: app.defense.headers });
      assert.equal(read.statusCode, 200);
      assert.deepEqual(read.json(), screening);

      // An auditor can recompute the record's hash from what the API returns.
      const { case_id: _case, case_status: _status, record_sha256: claimed, ...record } = read.json();
      assert.equal(createHash('sha256').update(canonicalJson(record)).digest('hex'), claimed);
    });

    test("the subject's company is screened as an organization, and its hit is its own match", async () => {
      const screening = (await prescreen({ subject: 'Jane Roe', company: 'Example Trading Co., Ltd.' })).json();
      assert.equal(screening.outcome, 'potential_match');
      assert.deepEqual(
        screening.matches.map((m: { field: string; entry_id: string }) => [m.field, m.entry_id]),
        [['company', '10002']],
      );
    });

    test('an address naming a sanctioned region is flagged with the region, and holds the subject though no name matched', async () => {
      const screening = (await prescreen({ subject: 'Margarethe Vanderbilt-Okonkwo', country: 'ua', address: 'vul. Lenina 12, Sevastopol' })).json();
      assert.ok(
        screening.country_flags.some((f: { region?: string; regime: string }) => f.region === 'crimea' && f.regime === 'OFAC_REGION'),
        JSON.stringify(screening.country_flags),
      );
      assert.deepEqual([screening.outcome, screening.score, screening.matches, screening.case_status], ['potential_match', 0, [], 'OPEN']);
      assert.deepEqual(screening.holds, [
        {
          kind: 'country',
          regime: 'OFAC_REGION',
          country: 'UA',
          region: 'crimea',
          severity: 'prohibited',
          rule: 'country_holds.prohibited_regimes',
          detail: 'address names "sevastopol" (crimea)',
        },
      ]);
      const elsewhere = (await prescreen({ subject: 'Margarethe Vanderbilt-Okonkwo', country: 'ua', address: 'vul. Khreshchatyk 1, Kyiv' })).json();
      assert.deepEqual([elsewhere.outcome, elsewhere.country_flags, elsewhere.holds, elsewhere.case_id], ['clear', [], [], null]);
    });

    test('a national of a comprehensively sanctioned country whose name matches nothing is held, never a bare clear', async () => {
      const response = await prescreen({ subject: 'Reza Ahmadi', nationality: 'ir', reference: 'door-ir' });
      assert.equal(response.statusCode, 201);
      const screening = response.json();
      assert.deepEqual([screening.outcome, screening.score, screening.matches, screening.auto_cleared_matches], ['potential_match', 0, [], []]);
      assert.deepEqual(
        screening.holds.map((h: { regime: string; rule: string; detail: string }) => [h.regime, h.rule, h.detail]),
        [
          ['OFAC_COMPREHENSIVE', 'country_holds.prohibited_regimes', 'nationality IR'],
          ['ITAR_126_1', 'country_holds.prohibited_regimes', 'nationality IR'],
        ],
        'the prohibited flags hold; EAR E:1 (restricted) is reported and holds nothing',
      );
      assert.ok(screening.country_flags.some((f: { regime: string }) => f.regime === 'EAR_E1'));
      assert.match(screening.case_id, /^case_/);
      assert.equal(screening.case_status, 'OPEN');

      const read = (await app.harness.app.inject({ url: `/api/v1/screenings/${screening.id}`, headers: app.defense.headers })).json();
      assert.deepEqual(read, screening);
      const { case_id: _case, case_status: _status, record_sha256: claimed, ...record } = read;
      assert.equal(createHash('sha256').update(canonicalJson(record)).digest('hex'), claimed, 'the holds are part of the hashed record');

      const [event] = await app.harness.database.owner<{ data: Record<string, unknown> }>(
        "SELECT data FROM event_outbox WHERE type = 'screening.completed' AND data->>'screening_id' = $1",
        [screening.id],
      );
      assert.deepEqual(event?.data, {
        screening_id: screening.id,
        source: 'prescreen',
        outcome: 'potential_match',
        score: 0,
        matches: 0,
        holds: 2,
        case_id: screening.case_id,
        reference: 'door-ir',
      });
    });

    test('a national of an unflagged country, or of one only restricted, stays clear', async () => {
      const ordinary = (await prescreen({ subject: 'Reza Ahmadi', nationality: 'NO', country: 'SE' })).json();
      assert.deepEqual([ordinary.outcome, ordinary.country_flags, ordinary.holds, ordinary.case_id], ['clear', [], [], null]);
      const restricted = (await prescreen({ subject: 'Reza Ahmadi', nationality: 'RU' })).json();
      assert.deepEqual(
        restricted.country_flags.map((f: { regime: string; severity: string }) => [f.regime, f.severity]),
        [['ITAR_126_1', 'restricted']],
      );
      assert.deepEqual(
        [restricted.outcome, restricted.holds, restricted.case_id],
        ['clear', [], null],
        'a restriction is reported, not held, unless the rules name it',
      );
    });

    test('a clean name is clear, with the list versions it was checked against', async () => {
      const screening = (await prescreen({ subject: 'Margarethe Vanderbilt-Okonkwo' })).json();
      assert.deepEqual([screening.outcome, screening.score, screening.matches, screening.holds, screening.case_status], ['clear', 0, [], [], null]);
      assert.deepEqual(
        screening.list_versions.map((v: { list: string }) => v.list),
        ['OFAC_SDN'],
      );
    });

    test('every field rule answers 400 naming the field', async () => {
      const cases: [unknown, string][] = [
        [{}, '/subject'],
        [{ subject: '   ' }, '/subject'],
        [{ subject: 'A\u0007B' }, '/subject'],
        [{ subject: 'Jane\u0085Doe' }, '/subject'],
        [{ subject: 'Jane\u202eeoD' }, '/subject'],
        [{ subject: '\ud800' }, '/subject'],
        [{ subject: '!!!' }, '/subject'],
        [{ subject: '\u200f' }, '/subject'],
        [{ subject: '😀' }, '/subject'],
        [{ company: 'Acme', type: 'person' }, '/type'],
        [{ subject: 'A B', metadata: { k: '\ud800' } }, '/metadata/k'],
        [{ subject: 'x'.repeat(201) }, '/subject'],
        [{ subject: 'A B', country: 'XX' }, '/country'],
        [{ subject: 'A B', country: 'USA' }, '/country'],
        [{ subject: 'A B', nationality: 'zz' }, '/nationality'],
        [{ subject: 'A B', date_of_birth: '1961-02-30' }, '/date_of_birth'],
        [{ subject: 'A B', date_of_birth: '2999' }, '/date_of_birth'],
        [{ subject: 'A B', date_of_birth: '12/02/1961' }, '/date_of_birth'],
        [{ subject: 'A B', aliases: Array.from({ length: 11 }, (_, i) => `alias ${i}`) }, '/aliases'],
        [{ subject: 'A B', aliases: ['ok', ' '] }, '/aliases/1'],
        [{ subject: 'A B', reference: 'r'.repeat(129) }, '/reference'],
        [{ subject: 'A B', lists: ['NO_SUCH_LIST'] }, '/lists/0'],
        [{ subject: 'A B', metadata: { note: 'n'.repeat(501) } }, '/metadata/note'],
        [{ subject: 'A B', metadata: { 'not a key!': 1 } }, '/metadata/not a key!'],
        [{ subject: 'A B', metadata: Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`k${i}`, 'v'.repeat(480)])) }, '/metadata'],
        [{ subject: 'A B', type: 'aircraft' }, '/type'],
        [{ company: 'Acme', type: 'vessel' }, '/type'],
        [{ company: 'Acme', date_of_birth: '1961' }, '/date_of_birth'],
        [{ subject: 'Sea Star', type: 'vessel', date_of_birth: '1990' }, '/date_of_birth'],
        [{ subject: 'Sea Star', type: 'vessel', nationality: 'PA' }, '/nationality'],
        [{ subject: 'A B', unexpected: true }, '/unexpected'],
        [{ subject: 'A B', identifiers: [{ type: 'ssn', value: '123456789' }] }, '/identifiers/0/type'],
        [
          {
            subject: 'A B',
            identifiers: [
              { type: 'passport', value: 'A1234567' },
              { type: 'imo', value: '9187629' },
            ],
          },
          '/identifiers/1/type',
        ],
        [{ subject: 'Sea Star', type: 'vessel', identifiers: [{ type: 'passport', value: 'A1234567' }] }, '/identifiers/0/type'],
        [{ subject: 'A B', identifiers: [{ type: 'passport' }] }, '/identifiers/0/value'],
        [{ subject: 'A B', identifiers: [{ type: 'passport', value: '  ' }] }, '/identifiers/0/value'],
        [{ subject: 'A B', identifiers: [{ type: 'passport', value: '--' }] }, '/identifiers/0/value'],
        [{ subject: 'A B', identifiers: [{ type: 'passport', value: 'A1\u0007' }] }, '/identifiers/0/value'],
        [{ subject: 'A B', identifiers: [{ type: 'passport', value: '1'.repeat(65) }] }, '/identifiers/0/value'],
        [{ subject: 'A B', identifiers: [{ type: 'passport', value: 'A1234567', country: 'XX' }] }, '/identifiers/0/country'],
        [{ subject: 'A B', identifiers: [{ type: 'passport', value: 'A1234567', issuer: 'IR' }] }, '/identifiers/0/issuer'],
        [{ subject: 'A B', identifiers: Array.from({ length: 11 }, (_, i) => ({ type: 'passport', value: `A123456${i}` })) }, '/identifiers'],
        [{ subject: 'Sea Star', type: 'vessel', identifiers: [{ type: 'imo', value: 'IMO 9187628' }] }, '/identifiers/0/value'],
        [{ subject: 'Sea Star', type: 'vessel', identifiers: [{ type: 'imo', value: '918762' }] }, '/identifiers/0/value'],
        [{ subject: 'Sea Star', type: 'vessel', identifiers: [{ type: 'mmsi', value: '5724692' }] }, '/identifiers/0/value'],
        [{ company: 'Acme', identifiers: [{ type: 'lei', value: '253400V1H6ART1UQ0N89' }] }, '/identifiers/0/value'],
      ];
      for (const [payload, pointer] of cases) {
        const response = await prescreen(payload);
        assert.equal(response.statusCode, 400, JSON.stringify(payload));
        assert.equal(response.headers['content-type'], 'application/problem+json; charset=utf-8');
        const pointers = response.json().errors.map((e: { pointer: string }) => e.pointer);
        assert.ok(pointers.includes(pointer), `${JSON.stringify(payload).slice(0, 80)} → ${pointers.join(', ')} (wanted ${pointer})`);
      }
    });

    test('a vessel is found by its IMO number under a new name; the answer and the evidence say it was found by identifier', async () => {
      const response = await prescreen({ subject: 'Ocean Glory', type: 'vessel', identifiers: [{ type: 'imo', value: 'imo 918-7629' }] }, app.enterprise);
      assert.equal(response.statusCode, 201);
      const screening = response.json();
      assert.equal(screening.outcome, 'potential_match');
      assert.deepEqual(screening.input.identifiers, [{ type: 'imo', value: 'imo 918-7629' }]);
      const [match] = screening.matches;
      assert.deepEqual([match.entry_id, match.entry_name, match.field], ['10003', 'SEA STAR', 'subject']);
      assert.ok(match.score >= 0.95);
      assert.equal(match.explanation.found_by_identifier, 'IMO number 9187629 is on the entry (IMO 9187629)');
      assert.match(
        match.explanation.summary,
        /^Found by identifier: IMO number 9187629 is on the entry \(IMO 9187629\)\. The names differ: "Ocean Glory" was compared with/,
      );
      if (!skipWithoutPdftotext()) {
        const pdf = await app.harness.app.inject({ url: `/api/v1/screenings/${screening.id}/evidence`, headers: app.enterprise.headers });
        const text = pdfPages(pdf.rawPayload).join(' ').replace(/\s+/g, ' ');
        assert.match(text, /Found by identifier: IMO number 9187629 is on the entry \(IMO 9187629\); the names alone are no match/);
        assert.match(text, /Identifiers imo imo 918-7629/);
      }
    });

    test('a vessel is screened against vessels only; an identifier on no entry finds nothing', async () => {
      const byName = (await prescreen({ subject: 'Example Trading', type: 'vessel' })).json();
      assert.deepEqual(byName.matches, [], 'a listed company is no vessel');
      const unlisted = (await prescreen({ subject: 'Ocean Glory', type: 'vessel', identifiers: [{ type: 'imo', value: '9074729' }] })).json();
      assert.equal(unlisted.outcome, 'clear');
    });

    test('identifiers stay out of the audit trail and the events', async () => {
      const screening = (await prescreen({ subject: 'Karim Ali', identifiers: [{ type: 'passport', value: 'Q9182736', country: 'IR' }] })).json();
      const audit = await app.harness.database.owner<{ details: unknown }>('SELECT details FROM audit_events WHERE target_id = $1', [screening.id]);
      const events = await app.harness.database.owner<{ data: unknown }>('SELECT data FROM event_outbox WHERE data @> $1', [
        JSON.stringify({ screening_id: screening.id }),
      ]);
      assert.ok(audit.length > 0 && events.length > 0);
      assert.doesNotMatch(JSON.stringify([audit, events]), /Q9182736/);
    });

    test('an Idempotency-Key replays the first answer; the same key with another body is refused', async () => {
      const key = { 'idempotency-key': `test-${Date.now()}` };
      const first = await post('/api/v1/prescreen', app.defense, { subject: 'Karim Ali' }, key);
      const again = await post('/api/v1/prescreen', app.defense, { subject: 'Karim Ali' }, key);
      assert.equal(first.statusCode, 201);
      assert.equal(again.json().id, first.json().id);
      const other = await post('/api/v1/prescreen', app.defense, { subject: 'Someone Else' }, key);
      assert.equal(other.statusCode, 409);
      assert.equal(other.json().code, 'idempotency_key_reused');
    });

    test("another organization's screening is 404, for the record and its evidence", async () => {
      const mine = (await prescreen({ subject: 'Karim Ali' }, app.enterprise)).json();
      for (const url of [`/api/v1/screenings/${mine.id}`, `/api/v1/screenings/${mine.id}/evidence`]) {
        const theirs = await app.harness.app.inject({ url, headers: (await createTenant(app.harness.database.owner, { tier: 'enterprise' })).headers });
        assert.equal(theirs.statusCode, 404, url);
      }
    });

    test('the evidence is a PDF download for Enterprise, refused to Defense', async () => {
      const screening = (await prescreen({ subject: 'Karim Yusuf Abu-Ali' }, app.enterprise)).json();
      const pdf = await app.harness.app.inject({ url: `/api/v1/screenings/${screening.id}/evidence`, headers: app.enterprise.headers });
      assert.equal(pdf.statusCode, 200);
      assert.equal(pdf.headers['content-type'], 'application/pdf');
      assert.match(String(pdf.headers['content-disposition']), new RegExp(`attachment; filename="gatehouse-evidence-${screening.id}\\.pdf"`));
      assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
      const again = await app.harness.app.inject({ url: `/api/v1/screenings/${screening.id}/evidence`, headers: app.enterprise.headers });
      assert.ok(again.rawPayload.equals(pdf.rawPayload), 'the same record renders to the same bytes');
      if (!skipWithoutPdftotext()) {
        const text = pdfPages(pdf.rawPayload).join(' ');
        const [event] = await app.harness.database.owner<{ hash: string }>(
          "SELECT encode(hash, 'hex') AS hash FROM audit_events WHERE action = 'screening.created' AND target_id = $1",
          [screening.id],
        );
        for (const expected of [
          screening.id,
          screening.request_id,
          '10001',
          screening.list_versions[0].sha256,
          screening.record_sha256,
          app.enterprise.keyId,
          event?.hash as string,
        ]) {
          assert.ok(text.includes(expected), `the PDF names ${expected}`);
        }
      }
      const audited = await app.harness.database.owner("SELECT 1 FROM audit_events WHERE action = 'screening.evidence_downloaded' AND target_id = $1", [
        screening.id,
      ]);
      assert.equal(audited.length, 2, 'each download is audited');
      // Another organization's screening is not found, whatever its tier; a Defense site keeps the evidence of its own door.
      const foreign = await app.harness.app.inject({ url: `/api/v1/screenings/${screening.id}/evidence`, headers: app.defense.headers });
      assert.equal(foreign.statusCode, 404);
    });

    test("the evidence's first page follows the case: to be adjudicated while open, then the disposition with when and by whom", {
      skip: skipWithoutPdftotext(),
    }, async () => {
      const screening = (await prescreen({ subject: 'Karim Yusuf Abu-Ali', company: 'Disposition Page Foundry' }, app.enterprise)).json();
      const firstPage = async () =>
        pdfPages((await app.harness.app.inject({ url: `/api/v1/screenings/${screening.id}/evidence`, headers: app.enterprise.headers })).rawPayload)[0] ?? '';
      assert.match(await firstPage(), new RegExp(`Disposition none yet: the case is OPEN since \\S+Z, to be adjudicated \\(case ${screening.case_id}\\)`));
      const decided = await post(`/api/v1/adjudication/${screening.case_id}/disposition`, app.enterprise, {
        disposition: 'DENIED',
        reason: 'Passport matches the listed one.',
      });
      assert.equal(decided.json().status, 'DENIED', decided.body);
      const page = await firstPage();
      assert.match(
        page,
        new RegExp(`Disposition DENIED, decided ${decided.json().updated_at} by api_key ${app.enterprise.keyId} \\(case ${screening.case_id}\\)`),
      );
      assert.doesNotMatch(page, /to be adjudicated/);
    });

    test('each screening is audited and leaves a screening.completed event (and case.opened for a potential match), without the names screened', async () => {
      const screening = (await prescreen({ subject: 'Karim Ali', company: 'Distinctive Holdings' })).json();
      const events = await app.harness.database.owner<{ type: string; data: Record<string, unknown> }>(
        "SELECT type, data FROM event_outbox WHERE data->>'screening_id' = $1 ORDER BY id",
        [screening.id],
      );
      const expected = screening.outcome === 'potential_match' ? ['case.opened', 'screening.completed'] : ['screening.completed'];
      assert.deepEqual(events.map((e) => e.type).sort(), expected);
      const [audit] = await app.harness.database.owner<{ details: unknown; hash: Buffer }>(
        "SELECT details, hash FROM audit_events WHERE target_id = $1 AND action = 'screening.created'",
        [screening.id],
      );
      assert.ok(audit);
      assert.doesNotMatch(JSON.stringify([events, audit.details]), /Karim|Distinctive/);
    });
  });
});
