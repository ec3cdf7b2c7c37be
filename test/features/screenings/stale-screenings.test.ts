/**
 * Every screening answer names its list versions and says whether any was past its maximum age
 * when it ran (`lists_stale`, `stale_lists`), recorded then and never recomputed; the evidence
 * PDF says so plainly. A screening stored before this was kept reads as "not recorded", and its
 * hash still verifies. Lists are made stale by setting back their last confirmation.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { canonicalJson } from '../../../src/canonical-json.ts';
import { pdfPages, skipWithoutPdftotext } from '../../evidence/pdf-text.ts';
import { type ConsoleClient, pageText, signedInUser } from '../../helpers/console-client.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists } from '../../helpers/test-lists.ts';

type Screening = Record<string, unknown> & { id: string; case_id: string | null; list_versions: { list: string; version_id: string }[] };

const recordHash = (screening: Record<string, unknown>) => {
  const { case_id: _case, case_status: _status, record_sha256: _hash, ...record } = screening;
  return createHash('sha256').update(canonicalJson(record)).digest('hex');
};

describe('screenings against a stale list', () => {
  let harness: TestApp;
  let org: TestTenant;
  let analyst: ConsoleClient;
  const post = (url: string, payload: object) => harness.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: org.headers, payload });
  const prescreen = async (payload: object): Promise<Screening> => {
    const response = await post('/prescreen', payload);
    assert.equal(response.statusCode, 201, response.body);
    return response.json();
  };
  const read = async (id: string): Promise<Screening> => (await harness.app.inject({ url: `/api/v1/screenings/${id}`, headers: org.headers })).json();
  const evidenceText = async (id: string) => {
    const pdf = await harness.app.inject({ url: `/api/v1/screenings/${id}/evidence`, headers: org.headers });
    assert.equal(pdf.statusCode, 200, pdf.body);
    return pdfPages(pdf.rawPayload).join(' ');
  };
  const ageList = async (list: string, hours: number) => {
    await harness.database.owner('UPDATE list_heads SET confirmed_at = now() - $2::interval WHERE list = $1', [list, `${hours} hours`]);
    await harness.app.listFreshness.reload();
  };
  const confirm = async (list: string) => {
    await harness.database.db.listChecks.confirm([list as never]);
    await harness.app.listFreshness.reload();
  };

  before(async () => {
    harness = await buildTestApp();
    org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    await loadTestLists(harness);
    analyst = await signedInUser(harness, org.organizationId, 'analyst@example.com', 'adjudicator');
  });
  after(() => harness.close());

  let staleScreening: Screening;
  let staleSdn: { confirmed_at: string; age_hours: number };

  test('current lists: lists_stale is false and stale_lists empty', async () => {
    const screening = await prescreen({ subject: 'Jane Roe' });
    assert.deepEqual([screening.lists_stale, screening.stale_lists], [false, []]);
  });

  test('a list past its age when the screening ran is named in it, with the version screened, its last confirmation, its age and the maximum', async () => {
    await ageList('OFAC_SDN', 60);
    staleScreening = await prescreen({ subject: 'Karim Yusuf Abu-Ali' });
    const sdn = staleScreening.list_versions.find((v) => v.list === 'OFAC_SDN');
    const [stale, ...others] = staleScreening.stale_lists as {
      list: string;
      version_id: string;
      confirmed_at: string;
      age_hours: number;
      max_age_hours: number;
    }[];
    assert.deepEqual([staleScreening.lists_stale, others], [true, []]);
    assert.deepEqual([stale?.list, stale?.version_id, stale?.max_age_hours], ['OFAC_SDN', sdn?.version_id, 48]);
    assert.ok(stale && stale.age_hours >= 60 && stale.age_hours < 60.2, String(stale?.age_hours));
    staleSdn = stale as typeof staleSdn;
    assert.ok(Math.abs(Date.now() - 60 * 3_600_000 - Date.parse(staleSdn.confirmed_at)) < 60_000);
    assert.equal(staleScreening.record_sha256, recordHash(staleScreening), 'the record hash covers what it says about its lists');
    const [audit] = await harness.database.owner<{ details: { stale_lists: string[] } }>(
      "SELECT details FROM audit_events WHERE action = 'screening.created' AND target_id = $1",
      [staleScreening.id],
    );
    assert.deepEqual(audit?.details.stale_lists, ['OFAC_SDN']);

    const onlyUvl = await prescreen({ subject: 'Jane Roe', lists: ['BIS_UVL'] });
    assert.deepEqual([onlyUvl.lists_stale, onlyUvl.stale_lists], [false, []], 'only the lists consulted count');
  });

  test('vendors, check-ins and ownership checks screened meanwhile say so too', async () => {
    const vendors = await post('/vendors/screen', { vendors: [{ name: 'Northwind Maritime' }, { name: 'Quillon Precision Components' }] });
    assert.equal(vendors.statusCode, 201, vendors.body);
    for (const result of vendors.json().results)
      assert.deepEqual(
        result.screening.stale_lists.map((s: { list: string }) => s.list),
        ['OFAC_SDN'],
      );

    const checkin = await post('/checkin', { visitor: { name: 'Maria Visitor' }, site: 'HQ' });
    assert.equal(checkin.statusCode, 201, checkin.body);
    assert.equal((await read(checkin.json().screening_id)).lists_stale, true);

    const ownership = await post('/ownership/check', {
      target: 'T',
      entities: [
        { id: 'O', name: 'Northwind Maritime LLC', type: 'entity', country: 'RU' },
        { id: 'T', name: 'Margarethe Vanderbilt-Okonkwo Holdings', type: 'entity', country: 'AE' },
      ],
      ownerships: [{ owner: 'O', owned: 'T', percent: 60 }],
    });
    assert.equal(ownership.statusCode, 200, ownership.body);
    const summary = ownership.json().screening;
    assert.deepEqual([summary.lists_stale, summary.stale_lists.map((s: { list: string }) => s.list)], [true, ['OFAC_SDN']]);
  });

  test('the record keeps what it said after the list is confirmed current again; new screenings are current', async () => {
    await confirm('OFAC_SDN');
    const again = await read(staleScreening.id);
    assert.deepEqual([again.lists_stale, again.stale_lists], [staleScreening.lists_stale, staleScreening.stale_lists]);
    assert.equal(again.record_sha256, staleScreening.record_sha256);
    assert.equal((await prescreen({ subject: 'Karim Yusuf Abu-Ali' })).lists_stale, false);
  });

  test('the evidence PDF says plainly which list was past its maximum age, and that the others were current', { skip: skipWithoutPdftotext() }, async () => {
    const text = await evidenceText(staleScreening.id);
    assert.ok(text.includes('Stale lists OFAC_SDN: past the maximum age when this screening ran (see the list versions below)'), text);
    const sdn = staleScreening.list_versions.find((v) => v.list === 'OFAC_SDN');
    assert.ok(
      text.includes(
        `OFAC_SDN was past its maximum age (last confirmed current ${staleSdn.confirmed_at}, ${staleSdn.age_hours.toFixed(1)} hours before; 48 hours allowed) when this screening ran. ` +
          `The screening ran against its version ${sdn?.version_id} as it was.`,
      ),
      text,
    );
    const current = await evidenceText((await prescreen({ subject: 'Jane Roe' })).id);
    assert.ok(current.includes('Stale lists none'));
    assert.ok(current.includes('Every list consulted was within its maximum age when this screening ran'));
    assert.doesNotMatch(current, /was past its maximum age/);
  });

  test('the console case shows which list was stale when the subject was screened', async () => {
    const text = pageText((await analyst.get(`/console/cases/${staleScreening.case_id}`)).body);
    assert.match(text, /List freshness\s+OFAC_SDN was past its maximum age \(last confirmed current 60 hours before, 48 allowed\)/);
  });

  test('a screening recorded before freshness was kept: absent, not false; its hash verifies; the evidence and the console say "not recorded"', async () => {
    const screening = await prescreen({ subject: 'Karim Yusuf Abu-Ali' });
    // What a screening stored before this release holds: no such fields, and the hash of that record.
    const { lists_stale: _stale, stale_lists: _lists, ...older } = screening;
    await harness.database.owner("UPDATE screenings SET record = record - 'lists_stale' - 'stale_lists', record_sha256 = $2 WHERE id = $1", [
      screening.id,
      recordHash(older),
    ]);
    const read_back = await read(screening.id);
    assert.equal('lists_stale' in read_back, false);
    assert.equal('stale_lists' in read_back, false);
    assert.equal(read_back.record_sha256, recordHash(read_back));
    if (!skipWithoutPdftotext()) {
      const text = await evidenceText(screening.id);
      assert.ok(text.includes('Stale lists not recorded'), text);
      assert.ok(text.includes('Whether any list was past its maximum age when this screening ran was not recorded'));
    }
    const page = pageText((await analyst.get(`/console/cases/${screening.case_id}`)).body);
    assert.match(page, /List freshness\s+not recorded/);
  });
});
