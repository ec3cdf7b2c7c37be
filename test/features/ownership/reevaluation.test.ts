/**
 * Stored determinations follow the lists, on the real SDN (2023-05, then 2024-05, then 2024-05
 * without one entry): a company listed in 2024 that owns 60% of a stored target flips that
 * determination to blocked when the monitoring run for the new version works, as a new
 * determination linked both ways and an `ownership.changed` event; the entry's removal flips it
 * back, in a run of its own that screens no subject; determinations the version did not touch are
 * not examined, one it touched without changing the verdict stores nothing, and another
 * organization's determinations are re-evaluated in its own run and stay invisible. The flip opens
 * an adjudication case about the new determination (the default rules open one on blocked); the
 * case follows each later determination, and a case cleared meanwhile reopens when the party is
 * listed again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { lookupWordKeys } from '../../../src/features/ownership/party-keys.ts';
import { importList } from '../../../src/lists/list-import.ts';
import { parseOfacLegacy } from '../../../src/screening/lists/ofac-legacy.ts';
import type { ListEntity } from '../../../src/screening/model.ts';
import { buildScreeningIndex } from '../../../src/screening/screening-index.ts';
import { createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { readListFile, skipWithoutListData } from '../../helpers/list-data.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';

const AS_OF = '2024-06-03';
const THRESHOLD = 0.8;

const sdnVersion = (path: string, publishedAt: string, entities = parseOfacLegacy('OFAC_SDN', { main: readListFile(path) }).entities) => ({
  list: 'OFAC_SDN' as const,
  format: 'ofac-legacy',
  files: [path],
  sourceSha256: `${publishedAt.replaceAll('-', '')}${entities.length}`.padEnd(64, '0'),
  publishedAt,
  entities,
  warnings: [],
});

type Owner = { id: string; name: string; type?: 'person' | 'entity'; percent: number; designations?: { list: string }[] };

/** A target owned directly by `owners`, decided for AS_OF and kept on record. */
const graph = (target: string, owners: Owner[]) => ({
  target,
  as_of: AS_OF,
  store: true,
  entities: [
    { id: target, name: `${target} Quillfeather Orchard Cooperative`, type: 'entity', country: 'DE' },
    ...owners.map(({ id, name, type = 'entity', designations }) => ({ id, name, type, ...(designations && { designations }) })),
  ],
  ownerships: owners.map(({ id, percent }) => ({ owner: id, owned: target, percent })),
});

describe('stored determinations re-evaluated when the SDN changes', { skip: skipWithoutListData() }, () => {
  let harness: TestApp;
  let org: TestTenant;
  let other: TestTenant;
  let listed: ListEntity;
  const stored: Record<string, string> = {};
  const newer = () => sdnVersion('ofac_sdn_2024-05/sdn.csv', '2024-05-03');
  const call = async (tenant: TestTenant, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
    const response = await harness.app.inject({ method, url: `/api/v1${url}`, headers: tenant.headers, ...(payload && { payload }) });
    assert.ok(response.statusCode < 300, `${method} ${url}: ${response.body}`);
    return response.json();
  };
  const determination = (id: string, tenant = org) => call(tenant, 'GET', `/ownership/checks/${id}`);
  const latestRun = async (tenant = org) => (await call(tenant, 'GET', '/monitoring/runs')).data[0];
  const loadVersion = async (version: ReturnType<typeof sdnVersion>) => {
    await importList(harness.database.db.lists, version);
    await harness.app.lists.refresh();
    await harness.app.services.monitoring.queueRuns();
    await harness.app.services.monitoring.workRuns();
  };
  const caseOf = (id: string) => call(org, 'GET', `/adjudication/${id}`);
  const caseEvents = () =>
    harness.database.owner<{ data: Record<string, unknown> }>("SELECT data FROM event_outbox WHERE organization_id = $1 AND type = 'case.opened' ORDER BY id", [
      org.organizationId,
    ]);
  const changedEvents = () =>
    harness.database.owner<{ data: Record<string, string> }>(
      "SELECT data FROM event_outbox WHERE organization_id = $1 AND type = 'ownership.changed' ORDER BY id",
      [org.organizationId],
    );

  before(async () => {
    harness = await buildTestApp();
    org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    other = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    const older = sdnVersion('ofac_sdn_2024-05/history/2023-05-02/sdn.csv', '2023-05-02');
    await importList(harness.database.db.lists, older);
    await harness.app.lists.refresh();

    // A company listed between the two files whose name matches nothing in 2023, nor anything but itself in 2024.
    const olderIds = new Set(older.entities.map((e) => e.entryId));
    const newerIndex = buildScreeningIndex(newer().entities);
    const loaded = harness.app.lists.current()?.index;
    const query = (name: string) => ({ name, kind: 'organization' as const });
    for (const e of newer().entities) {
      const name = e.names[0]?.full ?? '';
      if (olderIds.has(e.entryId) || e.type !== 'organization' || /[([«"]/.test(name) || name.split(/[ ,]+/).length < 2) continue;
      if (!newerIndex.screen(query(name), { threshold: THRESHOLD }).every((m) => m.entity.entryId === e.entryId)) continue;
      if ((await loaded?.screen(query(name), { threshold: THRESHOLD }))?.length === 0) {
        listed = e;
        break;
      }
    }
    assert.ok(listed, 'a company newly listed in 2024');
    const name = listed.names[0]?.full as string;
    // Its longest identifying word, as the screening reads it (legal forms are not).
    const longestWord = lookupWordKeys(listed)
      .map((key) => key.slice('word:'.length))
      .sort((a, b) => b.length - a.length)[0] as string;
    const clean = (id: string, percent: number): Owner => ({ id, name: 'Marisol Vantongeren-Oduya', type: 'person', percent });

    const store = async (key: string, body: object, tenant = org) => {
      stored[key] = (await call(tenant, 'POST', '/ownership/check', body)).id;
    };
    await store('flips', graph('T-FLIPS', [{ id: 'X', name, percent: 60 }, clean('P', 40)]));
    await store('minority', graph('T-MINORITY', [{ id: 'X', name, percent: 10 }, clean('P', 90)]));
    await store('quiet', graph('T-QUIET', [{ id: 'Q', name: 'Thistlewaite Lacquer Works', percent: 70 }, clean('P', 30)]));
    await store('shares-a-word', graph('T-WORD', [{ id: 'W', name: `${longestWord} Quillfeather Hothouse Cooperative`, percent: 70 }, clean('P', 30)]));
    await store('other-org', graph('T-FLIPS', [{ id: 'X', name, percent: 60 }, clean('P', 40)]), other);
    await call(org, 'PUT', '/workforce/sync', { mode: 'upsert', profiles: [{ external_id: 'W-1', name: 'Ingeborg Abrahamsen-Tull' }] });
  });
  after(() => harness.close());

  test('a company the new version lists flips the determination it owns 60% of: a new determination, linked both ways, and ownership.changed', async () => {
    for (const key of ['flips', 'minority', 'quiet', 'shares-a-word']) assert.equal((await determination(stored[key] as string)).status, 'clear', key);
    const word = (await determination(stored['shares-a-word'] as string)).request.entities[1].name;
    const version = newer();
    assert.ok(
      !buildScreeningIndex(version.entities)
        .screen({ name: word, kind: 'organization' }, { threshold: THRESHOLD })
        .some((m) => m.entity.entryId === listed.entryId),
      `${word} shares a word with ${listed.names[0]?.full} and is no match for it`,
    );

    await loadVersion(version);

    const run = await latestRun();
    assert.equal(run.status, 'completed');
    assert.deepEqual([run.counts.graphs_examined, run.counts.graphs_changed], [2, 1], 'the 60% and the 10% owned: nothing else was examined');
    const old = await determination(stored.flips as string);
    assert.match(old.superseded_by, /^own_/);
    const now = await determination(old.superseded_by);
    assert.deepEqual([now.status, now.supersedes, now.superseded_by, now.record_sha256_verified], ['blocked', old.id, null, true]);
    assert.deepEqual(now.asked_by, { type: 'system', id: 'monitoring' });
    assert.deepEqual(now.request, old.request, 'the same question');
    const owner = now.answer.entities.find((e: { id: string }) => e.id === 'X');
    assert.deepEqual(
      owner.screening_matches.filter((m: { counted: boolean }) => m.counted).map((m: { entry_id: string }) => m.entry_id),
      [listed.entryId],
    );
    assert.deepEqual(
      now.answer.screening.list_versions.map((v: { version_id: string }) => v.version_id),
      [run.list_version_id],
    );
    assert.deepEqual(
      (await changedEvents()).map((e) => e.data),
      [
        {
          determination_id: now.id,
          previous_determination_id: old.id,
          status: 'blocked',
          previous_status: 'clear',
          target_id: 'T-FLIPS',
          list: 'OFAC_SDN',
          list_version_id: run.list_version_id,
          case_id: now.case_id,
        },
      ],
    );
    const opened = await caseOf(now.case_id);
    assert.deepEqual(
      [opened.source, opened.ownership_check_id, opened.screening_id, opened.status, opened.priority, opened.lists],
      ['ownership', now.id, null, 'OPEN', 'critical', ['OFAC_SDN']],
    );
    assert.equal(opened.determination.id, now.id, 'the case shows the determination it is about');
    assert.deepEqual(
      (await caseEvents()).map((e) => e.data),
      [{ case_id: now.case_id, screening_id: null, ownership_check_id: now.id, source: 'ownership', status: 'OPEN', priority: 'critical' }],
    );
    const [audit] = await harness.database.owner<{ details: { record_sha256: string; supersedes: string } }>(
      "SELECT details FROM audit_events WHERE action = 'ownership.reevaluated' AND target_id = $1",
      [now.id],
    );
    assert.deepEqual([audit?.details.record_sha256, audit?.details.supersedes], [now.record_sha256, old.id]);

    for (const key of ['minority', 'quiet', 'shares-a-word'])
      assert.equal((await determination(stored[key] as string)).superseded_by, null, `${key}: no new determination`);
    const current = (await call(org, 'GET', '/ownership/checks?current=true')).data.map((c: { id: string }) => c.id).sort();
    assert.deepEqual(current, [now.id, stored.minority, stored.quiet, stored['shares-a-word']].sort());
  });

  test("another organization's determination is re-evaluated in its own run, and neither sees the other's", async () => {
    const theirs = await determination(stored['other-org'] as string, other);
    assert.match(theirs.superseded_by, /^own_/);
    assert.equal((await determination(theirs.superseded_by, other)).status, 'blocked');
    const theirRun = await latestRun(other);
    assert.deepEqual([theirRun.counts.graphs_examined, theirRun.counts.graphs_changed], [1, 1]);
    for (const id of [stored['other-org'], theirs.superseded_by]) {
      const response = await harness.app.inject({ url: `/api/v1/ownership/checks/${id}`, headers: org.headers });
      assert.equal(response.statusCode, 404);
    }
    const mine = (await call(org, 'GET', '/ownership/checks?target_id=T-FLIPS')).data;
    assert.equal(mine.length, 2, 'its own determination and the re-evaluation, not the other organization’s');
    const [{ n }] = (await harness.database.owner<{ n: number }>(
      "SELECT count(*)::int AS n FROM event_outbox WHERE type = 'ownership.changed' AND organization_id = $1",
      [other.organizationId],
    )) as [{ n: number }];
    assert.equal(n, 1);
  });

  test('the entry removed in a later version flips it back, in a run that screens no subject', async () => {
    const blocked = (await call(org, 'GET', '/ownership/checks?target_id=T-FLIPS&current=true')).data[0];
    assert.equal(blocked.status, 'blocked');
    const version = newer();
    await loadVersion({
      ...sdnVersion(
        'ofac_sdn_2024-05/sdn.csv',
        '2024-05-10',
        version.entities.filter((e) => e.entryId !== listed.entryId),
      ),
    });

    const run = await latestRun();
    assert.equal(run.status, 'completed');
    assert.equal(run.changed_entries, 0, 'it only removed an entry');
    assert.deepEqual(
      [run.counts.subjects, run.counts.screened, run.counts.graphs_examined, run.counts.graphs_changed],
      [0, 0, 1, 1],
      'the workforce is not screened; only the determination counting the entry is examined',
    );
    const after = await determination((await determination(blocked.id)).superseded_by);
    assert.deepEqual([after.status, after.supersedes], ['clear', blocked.id]);
    const last = (await changedEvents()).at(-1)?.data;
    assert.deepEqual([last?.previous_status, last?.status, last?.list_version_id], ['blocked', 'clear', run.list_version_id]);

    // The rules open no case on clear: the open case follows the clear determination, for a reviewer to close.
    assert.equal(after.case_id, blocked.case_id);
    const followed = await caseOf(blocked.case_id);
    assert.deepEqual([followed.status, followed.ownership_check_id], ['OPEN', after.id]);
    assert.deepEqual(followed.history.at(-1).details, {
      ownership_check_id: after.id,
      previous_ownership_check_id: blocked.id,
      determination_status: 'clear',
    });
    assert.equal(followed.history.at(-1).action, 'determination_changed');
    assert.equal((await caseEvents()).length, 1, 'no case opened again');
  });

  test('listed again, the cleared case reopens with the new determination', async () => {
    const clear = (await call(org, 'GET', '/ownership/checks?target_id=T-FLIPS&current=true')).data[0];
    await call(org, 'POST', `/adjudication/${clear.case_id}/disposition`, { disposition: 'CLEARED', reason: 'The stake was sold before the designation.' });

    await loadVersion(sdnVersion('ofac_sdn_2024-05/sdn.csv', '2024-05-17'));

    const blocked = await determination((await determination(clear.id)).superseded_by);
    assert.deepEqual([blocked.status, blocked.case_id], ['blocked', clear.case_id]);
    const reopened = await caseOf(clear.case_id);
    assert.deepEqual([reopened.status, reopened.closed_at, reopened.ownership_check_id, reopened.priority], ['OPEN', null, blocked.id, 'critical']);
    assert.deepEqual(
      reopened.history.map((e: { action: string; to_status: string }) => `${e.action}:${e.to_status}`),
      ['opened:OPEN', 'determination_changed:OPEN', 'disposition_applied:CLEARED', 'reopened:OPEN'],
    );
    assert.equal((await caseEvents()).at(-1)?.data.reopened, true);
  });
});
