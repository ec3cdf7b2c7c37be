/**
 * Continuous monitoring: a list version that adds or changes entries re-screens the workforce,
 * vendors and visitors still on site against those entries only; new matches open cases, a
 * decided subject's case reopens, unchanged decisions stay; a run cut short resumes without
 * opening a case twice; an organization that monitors nobody costs no read of the changed
 * entries. On the real SDN files a year apart too.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { monitoringSources, ownershipTermsFrom } from '../../../src/composition.ts';
import { createMonitoringService } from '../../../src/features/monitoring/service.ts';
import { createDeterminationFollower } from '../../../src/features/ownership/determination-follower.ts';
import { importList } from '../../../src/lists/list-import.ts';
import { parseOfacLegacy } from '../../../src/screening/lists/ofac-legacy.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { readListFile, skipWithoutListData } from '../../helpers/list-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';
import { loadTestLists, SDN_ROWS, sdnList } from '../../helpers/test-lists.ts';

const NEW_ROWS = [
  `40001,"ORLOVA, Svetlana Ivanovna","individual","RUSSIA-EO14024",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 1975."`,
  `40002,"BLUE HERON LOGISTICS LLC",-0- ,"RUSSIA-EO14024",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- `,
  `40003,"SOKOLOV, Boris Mikhailovich","individual","RUSSIA-EO14024",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- `,
];

/** Lists the employee the first run found clear, in the same version that changes Karim's entry. */
const NEWLY_LISTED = `40005,"FAIRWEATHER-STOKES, Imogen","individual","RUSSIA-EO14024",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- `;

function harnessFor() {
  let harness: TestApp;
  let org: TestTenant;
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    harness.app.inject({ method, url: `/api/v1${url}`, headers: org.headers, ...(payload && { payload }) });
  const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await call(method, url, payload);
    assert.ok(response.statusCode < 300, `${method} ${url}: ${response.body}`);
    return response.json();
  };
  return {
    setUp: async () => {
      harness = await buildTestApp();
      org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
      return harness;
    },
    get harness() {
      return harness;
    },
    get org() {
      return org;
    },
    call,
    ok,
    monitoring: () => harness.app.services.monitoring,
    profile: async (externalId: string) => (await ok('GET', `/workforce/profiles?external_id=${externalId}`)).data[0],
    casesOf: (reference: string) =>
      harness.database.owner<{ id: string; status: string }>(
        'SELECT DISTINCT c.id, c.status FROM cases c JOIN screenings s ON s.organization_id = c.organization_id AND s.case_id = c.id WHERE s.reference = $1',
        [reference],
      ),
  };
}

describe('monitoring on invented lists', () => {
  const t = harnessFor();
  before(async () => {
    const harness = await t.setUp();
    await loadTestLists(harness);
  });
  after(() => t.harness.close());

  test('new entries flag the workforce, vendors and visitors on site; a decided, unchanged match stays quiet; a changed entry reopens its case', async () => {
    await t.ok('PUT', '/workforce/sync', {
      mode: 'upsert',
      profiles: [
        { external_id: 'W-ORLOVA', name: 'Svetlana Ivanovna Orlova' },
        { external_id: 'W-KARIM', name: 'Karim Yusuf Abu-Ali', citizenship: 'LB' },
        { external_id: 'W-CLEAN', name: 'Imogen Fairweather-Stokes' },
      ],
    });
    const karim = await t.profile('W-KARIM');
    assert.ok(karim.case_id);
    await t.ok('POST', `/adjudication/${karim.case_id}/disposition`, { disposition: 'CLEARED', reason: 'Lebanese accountant, not the listed man.' });
    const vendor = (await t.ok('POST', '/vendors/screen', { vendors: [{ name: 'Blue Heron Logistics LLC', external_id: 'V-1' }] })).results[0];
    assert.equal(vendor.screening.outcome, 'clear');
    const visitor = await t.ok('POST', '/checkin', { visitor: { name: 'Boris Mikhailovich Sokolov' }, site: 'HQ' });
    assert.equal(visitor.status, 'checked_in');

    await loadTestLists(t.harness, [sdnList([...SDN_ROWS, ...NEW_ROWS])]);
    assert.equal(await t.monitoring().queueRuns(), 1, 'one run: one organization, one changed list');
    assert.equal(await t.monitoring().queueRuns(), 0, 'queued once, whoever asks again');
    await t.monitoring().workRuns();

    const [run] = (await t.ok('GET', '/monitoring/runs')).data;
    assert.equal(run.status, 'completed');
    assert.equal(run.changed_entries, 3);
    assert.deepEqual(run.counts, { subjects: 5, screened: 5, potential_matches: 3, cases_opened: 3, cases_reopened: 0, graphs_examined: 0, graphs_changed: 0 });
    assert.deepEqual((await t.ok('GET', `/monitoring/runs/${run.id}`)).counts, run.counts);

    const orlova = await t.profile('W-ORLOVA');
    assert.equal(orlova.latest_outcome, 'potential_match');
    const orlovaCase = await t.ok('GET', `/adjudication/${orlova.case_id}`);
    assert.deepEqual([orlovaCase.source, orlovaCase.status, orlovaCase.screening.matches[0].entry_id], ['rescreen', 'OPEN', '40001']);
    assert.deepEqual(
      orlovaCase.screening.list_versions.map((v: { list: string }) => v.list),
      ['OFAC_SDN'],
    );
    assert.equal((await t.profile('W-CLEAN')).latest_outcome, 'clear');
    assert.equal((await t.ok('GET', `/adjudication/${karim.case_id}`)).status, 'CLEARED', 'its entry did not change: still decided');
    const vendorScreening = await t.harness.database.owner<{ latest_screening_id: string }>(
      "SELECT latest_screening_id FROM vendors WHERE external_id = 'V-1'",
    );
    assert.equal((await t.ok('GET', `/screenings/${vendorScreening[0]?.latest_screening_id}`)).matches[0].entry_id, '40002');
    const session = await t.ok('GET', `/sessions/${visitor.id}`);
    assert.deepEqual([session.status, session.on_site], ['escalated', true], 'a visitor inside whose name was just listed is escalated');
    assert.match(session.case_id, /^case_/);
    const clearRescreens = await t.harness.database.owner<{ n: number }>(
      "SELECT count(*)::int AS n FROM screenings WHERE source = 'rescreen' AND outcome = 'clear'",
    );
    assert.equal(clearRescreens[0]?.n, 0, 'a clear re-screen is counted, not stored');

    // The listed man's entry changes, and a new one lists the clean employee: in one batch, Karim's
    // cleared case reopens on the re-screen and hers opens.
    await loadTestLists(t.harness, [sdnList([(SDN_ROWS[0] as string).replace('Commander', 'General'), ...SDN_ROWS.slice(1), ...NEW_ROWS, NEWLY_LISTED])]);
    await t.monitoring().queueRuns();
    await t.monitoring().workRuns();
    const newlyListed = await t.profile('W-CLEAN');
    assert.equal(newlyListed.latest_outcome, 'potential_match');
    assert.equal((await t.ok('GET', `/adjudication/${newlyListed.case_id}`)).status, 'OPEN');
    const reopened = await t.ok('GET', `/adjudication/${karim.case_id}`);
    assert.equal(reopened.status, 'OPEN');
    assert.deepEqual(
      reopened.history.map((h: { action: string }) => h.action),
      ['opened', 'disposition_applied', 'reopened'],
    );
    assert.equal(reopened.screening.source, 'rescreen');
    const [latest] = (await t.ok('GET', '/monitoring/runs')).data;
    assert.deepEqual([latest.counts.cases_reopened, latest.counts.cases_opened], [1, 1]);
    const events = await t.harness.database.owner<{ data: { reopened?: boolean } }>(
      "SELECT data FROM event_outbox WHERE type = 'case.opened' AND data->>'case_id' = $1 ORDER BY id",
      [karim.case_id],
    );
    assert.deepEqual(
      events.map((e) => e.data.reopened ?? false),
      [false, true],
    );
  });

  test('a run cut short resumes from its cursor, after its lease, without a case twice', async () => {
    const profiles = Array.from({ length: 7 }, (_, i) => ({
      external_id: `R-${i}`,
      name: i % 2 === 0 ? 'Yevgenia Petrovna Lebedeva' : `Harmless Person${i} Zzyzx`,
    }));
    await t.ok('PUT', '/workforce/sync', { mode: 'upsert', profiles });
    await loadTestLists(t.harness, [
      sdnList([...SDN_ROWS, ...NEW_ROWS, `40004,"LEBEDEVA, Yevgenia Petrovna","individual","RUSSIA-EO14024",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- `]),
    ]);
    const { screenings, visitorSessions } = t.harness.app.services;
    const small = createMonitoringService(
      t.harness.database.db,
      t.harness.app.lists,
      { screenings, sources: monitoringSources(visitorSessions) },
      { batchSize: 2, leaseSeconds: 120 },
    );
    await small.queueRuns();
    assert.equal(await small.workRuns({ maxBatches: 2 }), 2, 'two batches, then the process "dies"');
    const [cut] = (await t.ok('GET', '/monitoring/runs')).data;
    assert.equal(cut.status, 'running');
    assert.equal(await small.workRuns(), 0, 'its lease holds: nobody takes it up yet');
    await t.harness.database.owner("UPDATE monitoring_runs SET lease_until = now() - interval '1 second' WHERE id = $1", [cut.id]);
    assert.ok((await small.workRuns()) > 0);
    const [done] = (await t.ok('GET', '/monitoring/runs')).data;
    assert.equal(done.status, 'completed');
    for (const i of [0, 2, 4, 6]) assert.equal((await t.casesOf(`R-${i}`)).length, 1, `R-${i} has exactly one case`);
    for (const i of [1, 3, 5]) assert.equal((await t.casesOf(`R-${i}`)).length, 0, `R-${i} has none`);
    assert.equal(done.counts.cases_opened, 4);
  });

  test("another organization's runs are invisible", async () => {
    const other = await createTenant(t.harness.database.owner, { tier: 'enterprise' });
    const theirs = await t.harness.app.inject({ url: '/api/v1/monitoring/runs', headers: other.headers });
    const mine = (await t.ok('GET', '/monitoring/runs')).data;
    assert.ok(!theirs.json().data.some((r: { id: string }) => mine.some((m: { id: string }) => m.id === r.id)));
    const one = await t.harness.app.inject({ url: `/api/v1/monitoring/runs/${mine[0].id}`, headers: other.headers });
    assert.equal(one.statusCode, 404);
  });
});

describe("monitoring reads a version's changed entries only for subjects that need them", () => {
  const t = harnessFor();
  before(async () => {
    const harness = await t.setUp();
    await loadTestLists(harness);
  });
  after(() => t.harness.close());

  /** The app's monitoring over the same database, whose list store counts the reads of a version's entries (monitoring's and ownership's). */
  const countingReads = () => {
    const reads: string[] = [];
    const { db } = t.harness.database;
    const lists = {
      ...db.lists,
      entriesOf: (versionId: string, entryIds: string[]) => {
        reads.push(versionId);
        return db.lists.entriesOf(versionId, entryIds);
      },
    };
    const { services } = t.harness.app;
    const { screenings, visitorSessions } = services;
    // Stored ownership determinations follow the SDN's versions, as in a serving process (src/composition.ts).
    const determinations = createDeterminationFollower({
      lists: t.harness.app.lists,
      listStore: lists,
      screeningTerms: ownershipTermsFrom(services),
      freshness: (now) => t.harness.app.listFreshness.report(now),
      caseStatusChanged: { run: async () => {} },
    });
    const service = createMonitoringService(
      { ...db, lists },
      t.harness.app.lists,
      { screenings, sources: monitoringSources(visitorSessions), determinations },
      { batchSize: 50, leaseSeconds: 120 },
    );
    return { service, reads };
  };

  test('an organization that monitors nobody and holds no determination completes its run without them; a subject screened before the version is screened against them', async () => {
    await loadTestLists(t.harness, [sdnList([...SDN_ROWS, NEWLY_LISTED])]);
    const nobody = countingReads();
    assert.equal(await nobody.service.queueRuns(), 1);
    await nobody.service.workRuns();
    const [empty] = (await t.ok('GET', '/monitoring/runs')).data;
    assert.equal(empty.status, 'completed');
    assert.equal(empty.counts.subjects, 0);
    assert.deepEqual(nobody.reads, [], 'nobody to screen, nothing read');

    await t.ok('PUT', '/workforce/sync', { mode: 'upsert', profiles: [{ external_id: 'L-ORLOVA', name: 'Svetlana Ivanovna Orlova' }] });
    assert.equal((await t.profile('L-ORLOVA')).latest_outcome, 'clear');
    await loadTestLists(t.harness, [sdnList([...SDN_ROWS, NEWLY_LISTED, ...NEW_ROWS])]);
    const one = countingReads();
    assert.equal(await one.service.queueRuns(), 1);
    await one.service.workRuns();
    const [run] = (await t.ok('GET', '/monitoring/runs')).data;
    assert.equal(run.status, 'completed');
    assert.deepEqual([run.counts.subjects, run.counts.screened, run.counts.potential_matches], [1, 1, 1]);
    assert.deepEqual(one.reads, [run.list_version_id], 'read once, for the version the run screens against');
    assert.equal((await t.profile('L-ORLOVA')).latest_outcome, 'potential_match');
  });
});

describe('monitoring carries identifiers', () => {
  const t = harnessFor();
  before(async () => {
    const harness = await t.setUp();
    await loadTestLists(harness);
  });
  after(() => t.harness.close());

  test("entries listed later with a subject's passport or tax number flag the profile, the vendor and the visitor on site, under other names", async () => {
    await t.ok('PUT', '/workforce/sync', {
      mode: 'upsert',
      profiles: [{ external_id: 'W-PASS', name: 'Imogen Fairweather-Stokes', identifiers: [{ type: 'passport', value: 'K 4711 0815', country: 'DE' }] }],
    });
    await t.ok('POST', '/vendors/screen', {
      vendors: [{ name: 'Quiet Harbour Supplies', external_id: 'V-TAX', identifiers: [{ type: 'tax_id', value: '7702070139', country: 'RU' }] }],
    });
    const visitor = await t.ok('POST', '/checkin', {
      visitor: { name: 'Oskar Lindgren', identifiers: [{ type: 'national_id', value: '19650412-5837', country: 'SE' }] },
      site: 'HQ',
    });
    assert.equal(visitor.status, 'checked_in');

    await loadTestLists(t.harness, [
      sdnList([
        ...SDN_ROWS,
        `50001,"RAHIMI, Leyla","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"Passport K47110815 (Germany)."`,
        `50002,"STROYINVEST HOLDING JSC",-0- ,"RUSSIA-EO14024",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"Tax ID No. 7702070139 (Russia)."`,
        `50003,"SVENSSON, Per","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"National ID No. 196504125837 (Sweden)."`,
      ]),
    ]);
    await t.monitoring().queueRuns();
    await t.monitoring().workRuns();

    const [run] = (await t.ok('GET', '/monitoring/runs')).data;
    assert.deepEqual([run.counts.screened, run.counts.potential_matches], [3, 3]);
    const profile = await t.profile('W-PASS');
    const profileCase = await t.ok('GET', `/adjudication/${profile.case_id}`);
    assert.deepEqual(
      [profileCase.screening.matches[0].entry_id, profileCase.screening.matches[0].explanation.found_by_identifier],
      ['50001', 'passport K47110815 (DE) is on the entry (Passport K47110815 (DE))'],
    );
    const [vendor] = await t.harness.database.owner<{ latest_screening_id: string }>("SELECT latest_screening_id FROM vendors WHERE external_id = 'V-TAX'");
    assert.equal((await t.ok('GET', `/screenings/${vendor?.latest_screening_id}`)).matches[0].entry_id, '50002');
    const session = await t.ok('GET', `/sessions/${visitor.id}`);
    assert.equal(session.status, 'escalated');
  });
});

describe('monitoring on the real SDN, 2023-05 then 2024-05', { skip: skipWithoutListData() }, () => {
  const t = harnessFor();
  before(() => t.setUp());
  after(() => t.harness.close());

  const sdnFile = (path: string, publishedAt: string) => ({
    list: 'OFAC_SDN' as const,
    format: 'ofac-legacy',
    files: [path],
    sourceSha256: publishedAt.replaceAll('-', '').padEnd(64, '0'),
    publishedAt,
    entities: parseOfacLegacy('OFAC_SDN', { main: readListFile(path) }).entities,
    warnings: [],
  });

  test('a profile whose name was listed in 2024 is flagged; a cleared profile whose entry did not change is left alone', async () => {
    const older = sdnFile('ofac_sdn_2024-05/history/2023-05-02/sdn.csv', '2023-05-02');
    const newer = sdnFile('ofac_sdn_2024-05/sdn.csv', '2024-05-03');
    await importList(t.harness.database.db.lists, older);
    await t.harness.app.lists.refresh();
    const olderIds = new Set(older.entities.map((e) => e.entryId));
    const added = newer.entities.find((e) => !olderIds.has(e.entryId) && e.type === 'person' && e.names[0]?.full.split(/[ ,]+/).length === 3);
    const byId = new Map(older.entities.map((e) => [e.entryId, JSON.stringify(e)]));
    const unchanged = newer.entities.find((e) => e.type === 'person' && byId.get(e.entryId) === JSON.stringify(e) && (e.names[0]?.full.length ?? 0) > 18);
    assert.ok(added && unchanged);
    const name = (full: string) => full.split(', ').reverse().join(' ');

    await t.ok('PUT', '/workforce/sync', {
      mode: 'upsert',
      profiles: [
        { external_id: 'NEW', name: name(added.names[0]?.full as string) },
        { external_id: 'OLD', name: name(unchanged.names[0]?.full as string) },
      ],
    });
    assert.equal((await t.profile('NEW')).latest_outcome, 'clear', 'not listed in 2023');
    const old = await t.profile('OLD');
    assert.ok(old.case_id, 'listed in 2023');
    await t.ok('POST', `/adjudication/${old.case_id}/disposition`, { disposition: 'CLEARED', reason: 'Different person: identity documents checked.' });

    await importList(t.harness.database.db.lists, newer);
    await t.harness.app.lists.refresh();
    await t.monitoring().queueRuns();
    await t.monitoring().workRuns();

    const flagged = await t.profile('NEW');
    assert.equal(flagged.latest_outcome, 'potential_match');
    const found = await t.ok('GET', `/adjudication/${flagged.case_id}`);
    assert.equal(found.screening.matches[0].entry_id, added.entryId);
    assert.equal((await t.ok('GET', `/adjudication/${old.case_id}`)).status, 'CLEARED');
    const [run] = (await t.ok('GET', '/monitoring/runs')).data;
    assert.equal(run.status, 'completed');
    assert.ok(run.changed_entries > 2_000, String(run.changed_entries));
  });
});
