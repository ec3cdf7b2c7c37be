/**
 * Reads of personal data in the audit trail, through the API and the console: who read which
 * record, under which request id; refusals in the caller's own chain; a chain that still verifies
 * after many batched reads; the export's `kind` filter; and reads written when the app closes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { verifyChain } from '../../src/audit/audit-verifier.ts';
import { READ_ACTIONS } from '../../src/audit/read-actions.ts';
import { signedInUser } from '../helpers/console-client.ts';
import { createTenant, personHeaders, type TestTenant } from '../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { loadTestLists } from '../helpers/test-lists.ts';

type Line = {
  seq: number;
  action: string;
  actor: { type: string; id: string; role: string | null };
  target: { type: string | null; id: string | null };
  request_id: string | null;
  outcome: 'success' | 'failure';
  details: Record<string, unknown>;
};
type Headers = { authorization: string };

let harness: TestApp;
let org: TestTenant; // an admin key of an Enterprise organization
let other: TestTenant; // an admin key of another one
let officer: Headers; // a person with the admin role in `org`
const records = { screening: '', caseId: '', vendorScreening: '', session: '' };

const get = (url: string, headers: Headers, requestId?: string) =>
  harness.app.inject({ url: `/api/v1${url}`, headers: { ...headers, ...(requestId && { 'x-request-id': requestId }) } });
const post = async (url: string, payload: object, method: 'POST' | 'PUT' = 'POST') => {
  const response = await harness.app.inject({ method, url: `/api/v1${url}`, headers: org.headers, payload });
  assert.ok(response.statusCode < 300, response.body);
  return response.json();
};
const exported = async (query = '', as: Headers = org.headers): Promise<Line[]> => {
  const response = await get(`/audit/export${query}`, as);
  assert.equal(response.statusCode, 200, response.body);
  return response.body.trim() === ''
    ? []
    : response.body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
};
const byRequest = (lines: Line[], requestId: string) => lines.filter((line) => line.request_id === requestId);

before(async () => {
  harness = await buildTestApp();
  org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
  other = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
  await loadTestLists(harness);
  officer = await personHeaders(harness.database.db, org.organizationId, 'admin', 'officer@example.com');

  const screening = await post('/prescreen', { subject: 'Karim Yusuf Abu-Ali', nationality: 'IR' });
  records.screening = screening.id;
  records.caseId = screening.case_id;
  records.vendorScreening = (
    await post('/vendors/screen', { vendors: [{ name: 'Harmless Widgets GmbH', country: 'DE', external_id: 'V-1' }] })
  ).results[0].screening.id;
  records.session = (await post('/checkin', { visitor: { name: 'Harriet Quimby-Lindqvist', company: 'Visiting Co' }, site: 'HQ' })).id;
  await post('/workforce/sync', { mode: 'upsert', profiles: [{ external_id: 'E-1', name: 'Placeholder Person Qwerty', citizenship: 'US' }] }, 'PUT');
});
after(() => harness.close());

describe('reads of personal data in the audit trail', () => {
  test('a read of each kind of personal data appears in the export with its request id and the person who read it', async () => {
    const one = (action: string, type: string, id: string) => ({ action, target: { type, id } });
    const reads = {
      'read-screening': [`/screenings/${records.screening}`, one('screening.viewed', 'screening', records.screening)],
      'read-vendor': [`/screenings/${records.vendorScreening}`, one('screening.viewed', 'screening', records.vendorScreening)],
      'read-evidence': [`/screenings/${records.screening}/evidence`, one('screening.evidence_downloaded', 'screening', records.screening)],
      'read-case': [`/adjudication/${records.caseId}`, one('case.viewed', 'case', records.caseId)],
      'read-session': [`/sessions/${records.session}`, one('visitor_session.viewed', 'visitor_session', records.session)],
      'read-queue': ['/adjudication/queue', { action: 'case.listed', target: { type: null, id: null } }],
      'read-sessions': ['/sessions', { action: 'visitor_session.listed', target: { type: null, id: null } }],
      'read-profiles': ['/workforce/profiles', { action: 'workforce_profile.listed', target: { type: null, id: null } }],
      'read-export': ['/audit/export?action=none.such', { action: 'audit.exported', target: { type: null, id: null } }],
    } as const;
    const listed = new Map<string, string[]>();
    for (const [requestId, [url]] of Object.entries(reads)) {
      const response = await get(url, officer, requestId);
      assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      if (response.headers['content-type']?.toString().startsWith('application/json')) {
        const data = response.json().data as { id: string }[] | undefined;
        if (data)
          listed.set(
            requestId,
            data.map((item) => item.id),
          );
      }
    }
    assert.ok(listed.get('read-queue')?.includes(records.caseId));
    assert.ok(listed.get('read-sessions')?.includes(records.session));
    assert.equal(listed.get('read-profiles')?.length, 1);

    const lines = await exported('?kind=read');
    for (const [requestId, [url, expected]] of Object.entries(reads)) {
      const found = byRequest(lines, requestId);
      assert.equal(found.length, 1, `${url} is recorded once`);
      const [line] = found as [Line];
      assert.deepEqual({ action: line.action, target: line.target }, expected, url);
      assert.deepEqual(line.actor, { type: 'user', id: 'officer@example.com', role: 'admin' }, url);
      assert.equal(line.outcome, 'success');
      const ids = listed.get(requestId);
      if (ids) assert.deepEqual(line.details, { count: ids.length, ids }, `${url} names every record it listed`);
    }
  });

  test("another organization's ids answer 404; each refusal is a failed read in the caller's chain, and the owner's has none", async () => {
    const probes = {
      'probe-screening': [`/screenings/${records.screening}`, 'screening.viewed', 'screening', records.screening],
      'probe-evidence': [`/screenings/${records.screening}/evidence`, 'screening.evidence_downloaded', 'screening', records.screening],
      'probe-case': [`/adjudication/${records.caseId}`, 'case.viewed', 'case', records.caseId],
      'probe-session': [`/sessions/${records.session}`, 'visitor_session.viewed', 'visitor_session', records.session],
    } as const;
    for (const [requestId, [url]] of Object.entries(probes)) {
      const response = await get(url, other.headers, requestId);
      assert.equal(response.statusCode, 404, url);
    }
    const theirs = await exported('?kind=read', other.headers);
    for (const [requestId, [url, action, type, id]] of Object.entries(probes)) {
      const [line] = byRequest(theirs, requestId);
      assert.deepEqual(
        line && [line.action, line.target, line.outcome, line.details, line.actor.id],
        [action, { type, id }, 'failure', { status: 404 }, other.keyId],
        url,
      );
    }
    const mine = await exported();
    assert.deepEqual(
      mine.filter((line) => line.request_id?.startsWith('probe-')),
      [],
      "nothing of the probe reaches the owner's chain",
    );
  });

  test('the chain verifies after many batched reads answered while screenings were written', async () => {
    const READS = 300;
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < READS; i++) {
      work.push(get(`/screenings/${records.screening}`, org.headers, `bulk-${i}`).then((response) => assert.equal(response.statusCode, 200)));
      if (i % 30 === 0) work.push(post('/prescreen', { subject: `Clean Name Number${i} Zyxwv` }));
    }
    await Promise.all(work);
    const lines = await exported('?action=screening.viewed');
    const bulk = lines.filter((line) => line.request_id?.startsWith('bulk-'));
    assert.equal(bulk.length, READS);
    assert.equal(new Set(bulk.map((line) => line.request_id)).size, READS, 'each read once');
    const verified = await verifyChain(harness.database.db, org.organizationId);
    assert.equal(verified.intact, true, JSON.stringify(verified.first_break));
    assert.ok(verified.events > READS);
  });

  test('the export filters reads in or out by kind, and says how in OpenAPI', async () => {
    const all = await exported();
    const reads = new Set((await exported('?kind=read')).map((line) => line.seq));
    const writes = new Set((await exported('?kind=write')).map((line) => line.seq));
    assert.ok(all.some((line) => line.action === 'screening.viewed') && all.some((line) => line.action === 'screening.created'));
    for (const line of all) {
      const isRead = (READ_ACTIONS as readonly string[]).includes(line.action);
      assert.deepEqual([reads.has(line.seq), writes.has(line.seq)], [isRead, !isRead], `${line.seq} ${line.action}`);
    }

    const refused = await get('/audit/export?kind=everything', org.headers);
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().errors[0].pointer, '/kind');

    const openapi = (await harness.app.inject({ url: '/api/v1/openapi.json' })).json();
    const kind = openapi.paths['/api/v1/audit/export'].get.parameters.find((p: { name: string }) => p.name === 'kind');
    assert.deepEqual(
      kind.schema.anyOf.flatMap((s: { enum: string[] }) => s.enum),
      ['read', 'write'],
    );
    assert.match(kind.description, /screening\.viewed/);
    const screening = openapi.paths['/api/v1/screenings/{id}'].get;
    assert.equal(screening['x-audited-read'], 'screening.viewed');
    assert.equal(screening.description.match(/recorded in the audit trail as `screening\.viewed`/g)?.length, 1);
  });

  test("the console's case page, queue, roll-call and audit log are reads of the person who opened them", async () => {
    const person = await signedInUser(harness, org.organizationId, 'guard@example.com', 'admin');
    const pages = {
      [`/console/cases/${records.caseId}`]: 'case.viewed',
      '/console/queue': 'case.listed',
      '/console/visitors': 'visitor_session.listed',
      '/console/audit': 'audit.viewed',
    };
    const requestIds = new Map<string, string>();
    for (const url of Object.keys(pages)) {
      const page = await person.get(url);
      assert.equal(page.statusCode, 200, url);
      requestIds.set(url, String(page.headers['x-request-id']));
    }
    const lines = await exported('?kind=read&actor=guard@example.com');
    for (const [url, action] of Object.entries(pages)) {
      const [line] = byRequest(lines, requestIds.get(url) as string);
      assert.equal(line?.action, action, url);
      assert.deepEqual(line?.actor, { type: 'user', id: 'guard@example.com', role: 'admin' });
    }
    const [caseRead, queue, rollCall] = Object.keys(pages).map((url) => byRequest(lines, requestIds.get(url) as string)[0]);
    assert.deepEqual(caseRead?.target, { type: 'case', id: records.caseId });
    assert.ok((queue?.details.ids as string[] | undefined)?.includes(records.caseId), 'the queue names the cases it showed');
    assert.ok((rollCall?.details.ids as string[] | undefined)?.includes(records.session), 'the roll-call names the visitors it showed');

    const onlyReads = (await person.get('/console/audit?kind=read')).body;
    assert.match(onlyReads, /<code>case\.viewed<\/code>/);
    assert.doesNotMatch(onlyReads, /<code>screening\.created<\/code>/);
    const noReads = (await person.get('/console/audit?kind=write')).body;
    assert.doesNotMatch(noReads, /<code>case\.viewed<\/code>/);
  });

  test('closing the app writes the reads it answered', async () => {
    const local = await buildTestApp();
    try {
      const tenant = await createTenant(local.database.owner, { tier: 'enterprise' });
      for (const requestId of ['closing-1', 'closing-2', 'closing-3']) {
        const response = await local.app.inject({ url: '/api/v1/sessions', headers: { ...tenant.headers, 'x-request-id': requestId } });
        assert.equal(response.statusCode, 200);
      }
      await local.app.close();
      const rows = await local.database.owner<{ request_id: string }>(
        'SELECT request_id FROM audit_events WHERE organization_id = $1 AND action = $2 ORDER BY seq',
        [tenant.organizationId, 'visitor_session.listed'],
      );
      assert.deepEqual(
        rows.map((row) => row.request_id),
        ['closing-1', 'closing-2', 'closing-3'],
      );
    } finally {
      await local.database.close();
    }
  });
});
