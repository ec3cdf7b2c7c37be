/**
 * Many processes, one behaviour: three `gatehouse serve` processes behind HAProxy, once on
 * PostgreSQL directly and once through PgBouncer in transaction mode, run the main flows over
 * HTTP (each request to the next process in turn), a short load, and the failed-authentication
 * limit, as clients on their own addresses behind the balancer (127.0.0.2…). PostgreSQL only;
 * needs Debian's haproxy and pgbouncer (helpers/daemons.ts).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FAQ_401_EXAMPLE_3 } from '../src/features/ownership/request-examples.ts';
import { type BalancedService, PROCESSES, startBalancedService } from './helpers/balanced-service.ts';
import { skipWithoutDaemons } from './helpers/daemons.ts';
import { requestFrom } from './helpers/http-from.ts';

const AUTH_FAILURES_PER_MINUTE = 4;
const LISTED = { subject: 'Karim Yusuf Abu-Ali', nationality: 'LB' };
const skip = skipWithoutDaemons('haproxy', 'pgbouncer');

for (const pooled of [false, true]) {
  describe(`three processes behind HAProxy, ${pooled ? 'through PgBouncer in transaction mode' : 'on PostgreSQL directly'}`, { skip }, () => {
    let service: BalancedService;
    let key: string;
    let organizationId: string;
    /** A client at `from`, with the organization's key unless told otherwise. */
    const client =
      (from: string) =>
      (method: string, path: string, body?: unknown, headers: Record<string, string> = { authorization: `Bearer ${key}` }) =>
        requestFrom(from, `${service.baseUrl}/v1${path}`, { method, headers, body });

    before(async () => {
      // The load sends far more than a credential's default rate: the credential limit is not what it measures.
      service = await startBalancedService({
        pooled,
        env: { AUTH_FAILURES_PER_MINUTE: String(AUTH_FAILURES_PER_MINUTE), RATE_LIMIT_ENTERPRISE_PER_SECOND: '10000', LISTS_RELOAD_SECONDS: '1' },
      });
      // The CLI, as operators run it, reaching the database as the processes do.
      organizationId = (await service.cli(['orgs', 'create', '--name', 'Balanced Co', '--tier', 'enterprise'])).id as string;
      key = (await service.cli(['keys', 'create', '--org', organizationId, '--admin'])).key as string;
    });
    after(() => service?.stop());

    test(`every process started (each running the migrations under the one lock) and ${pooled ? 'sends statements as full text: it saw the pooler' : 'prepares its statements'}`, () => {
      for (const server of service.processes) {
        const listening = server
          .stdout()
          .split('\n')
          .find((line) => line.includes('gatehouse is listening'));
        assert.equal(JSON.parse(listening as string).preparedStatements, !pooled);
      }
    });

    test('prescreen, case and disposition, each request on the next process; the audit trail records the client, not the balancer', async () => {
      const desk = client('127.0.0.2');
      const screened = await desk('POST', '/prescreen', { ...LISTED, reference: 'balanced' });
      assert.equal(screened.status, 201, screened.body);
      const caseId = screened.json().case_id as string;
      assert.match(caseId, /^case_/);
      const opened = await desk('GET', `/adjudication/${caseId}`);
      assert.equal(opened.status, 200, opened.body);
      assert.equal(opened.json().status, 'OPEN');
      const decided = await desk('POST', `/adjudication/${caseId}/disposition`, { disposition: 'CLEARED', reason: 'Another man: passport seen at the desk.' });
      assert.equal(decided.status, 200, decided.body);
      const again = await desk('POST', `/adjudication/${caseId}/disposition`, { disposition: 'DENIED', reason: 'Too late.' });
      assert.equal(again.status, 409, again.body);

      const exported = await desk('GET', '/audit/export?action=case.disposition_applied');
      assert.equal(exported.status, 200, exported.body);
      const events = exported.body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const applied = events.find((e) => e.action === 'case.disposition_applied' && e.target?.id === caseId);
      assert.equal(applied?.source_ip, '127.0.0.2');
    });

    test('check-in and check-out, on different processes', async () => {
      const desk = client('127.0.0.2');
      const visit = await desk('POST', '/checkin', { visitor: { name: 'Ana Novak' }, site: 'HQ' });
      assert.equal(visit.status, 201, visit.body);
      assert.equal(visit.json().status, 'checked_in');
      const id = visit.json().id as string;
      const out = await desk('POST', `/sessions/${id}/update`, { status: 'checked_out' });
      assert.equal(out.status, 200, out.body);
      const read = await desk('GET', `/sessions/${id}`);
      assert.equal(read.json().status, 'checked_out');
    });

    test('an ownership determination kept on record by one process is read back by another', async () => {
      const desk = client('127.0.0.2');
      const checked = await desk('POST', '/ownership/check', { ...FAQ_401_EXAMPLE_3, screen_names: false, store: true });
      assert.equal(checked.status, 200, checked.body);
      assert.equal(checked.json<{ ofac: { blocked: boolean } }>().ofac.blocked, true, checked.body);
      const stored = await desk('GET', `/ownership/checks/${checked.json().id}`);
      assert.equal(stored.status, 200, stored.body);
      assert.deepEqual([stored.json().status, stored.json().target], ['blocked', { id: 'T', name: 'Target Trading LLC' }]);
    });

    test('a short load through the balancer: every request answered, every process serving, every screening stored once', async () => {
      const requests = 240;
      const load = client('127.0.0.3');
      const answers: number[] = [];
      let next = 0;
      const worker = async () => {
        for (let n = next++; n < requests; n = next++) {
          const answer = await load(
            'POST',
            '/prescreen',
            { subject: `Visitor Number${n} Loadtest`, reference: `load-${n}` },
            {
              authorization: `Bearer ${key}`,
              'x-request-id': `balanced-load-${n}`,
            },
          );
          answers.push(answer.status);
        }
      };
      await Promise.all(Array.from({ length: 6 }, worker));
      assert.deepEqual(
        answers.filter((status) => status !== 201),
        [],
      );
      const [stored] = await service.owner<{ n: number }>(
        "SELECT count(DISTINCT id)::int AS n FROM screenings WHERE organization_id = $1 AND record->>'reference' LIKE 'load-%'",
        [organizationId],
      );
      assert.equal(stored?.n, requests);
      // Each process logs the requests it answered, at least once a second.
      for (const deadline = Date.now() + 3_000; Date.now() < deadline && !everyProcessServed(); ) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok(everyProcessServed(), `each of the ${PROCESSES} processes answered some of the load`);
    });
    const everyProcessServed = () => service.processes.every((server) => server.stdout().includes('"request_id":"balanced-load-'));

    test('one client failing to authenticate is refused, and another client behind the same balancer is not', async () => {
      const bad = client('127.0.0.4');
      const statuses: number[] = [];
      // Enough to exhaust the limit in every process, whether they share it or not.
      for (let n = 0; n < PROCESSES * (AUTH_FAILURES_PER_MINUTE + 1); n++) {
        statuses.push((await bad('GET', '/api-keys', undefined, { authorization: 'Bearer gk_live_not_a_key_at_all_000000000000' })).status);
      }
      assert.deepEqual(statuses.slice(0, AUTH_FAILURES_PER_MINUTE), Array(AUTH_FAILURES_PER_MINUTE).fill(401));
      assert.equal(statuses.at(-1), 429);
      const other = await client('127.0.0.5')('GET', '/api-keys');
      assert.equal(other.status, 200, 'another client is not locked out by the first one’s failures');
    });

    test('gatehouse audit verify, reaching the database as the processes do, finds the chain of everything above intact', async () => {
      const report = await service.cli(['audit', 'verify', '--org', organizationId]);
      assert.equal(report.intact, true, JSON.stringify(report));
    });

    test('a list version imported by one CLI reaches every process; meanwhile each answer names the versions it screened against, and its matches are theirs', async () => {
      const desk = client('127.0.0.7');
      const versionsOf = (answer: Screened) => answer.list_versions.map((v) => v.version_id).join(',');
      const before = (await desk('POST', '/prescreen', { subject: ADDED.subject })).json<Screened>();
      assert.equal(before.matches.length, 0, 'not listed yet');
      const files = listsWithAnEntryAdded();
      try {
        await service.cli(['lists', 'import', files]);
      } finally {
        fs.rmSync(files, { recursive: true });
      }
      const answers: Screened[] = [];
      // HAProxy sends each request to the next process: twice round them all on the new version is every process on it.
      const allOnNew = () => answers.length >= 2 * PROCESSES && answers.slice(-2 * PROCESSES).every((a) => versionsOf(a) !== versionsOf(before));
      for (const deadline = Date.now() + 20_000; Date.now() < deadline && !allOnNew(); ) {
        const answer = await desk('POST', '/prescreen', { subject: ADDED.subject });
        assert.equal(answer.status, 201, answer.body);
        answers.push(answer.json<Screened>());
      }
      assert.ok(allOnNew(), `every process screens against the new version within the reload interval (${answers.length} answers)`);
      const newVersions = versionsOf(answers.at(-1) as Screened);
      for (const answer of answers) {
        // One version set or the other, whole: a process swaps its lists and their index together.
        assert.ok([versionsOf(before), newVersions].includes(versionsOf(answer)), versionsOf(answer));
        const listed = versionsOf(answer) === newVersions;
        assert.deepEqual(
          answer.matches.map((m) => m.entry_id),
          listed ? [ADDED.entryId] : [],
          `an answer naming the ${listed ? 'new' : 'old'} version set`,
        );
      }
    });

    test('the failed-authentication limit holds across processes: after the limit, whichever process answers refuses', async () => {
      const bad = client('127.0.0.6');
      for (let n = 0; n < AUTH_FAILURES_PER_MINUTE; n++) {
        assert.equal((await bad('GET', '/api-keys', undefined, { authorization: 'Bearer gk_live_not_a_key_at_all_000000000000' })).status, 401);
      }
      // One request to each process: every one of them has seen the failures.
      for (let n = 0; n < PROCESSES; n++) {
        const refused = await bad('GET', '/api-keys', undefined, { authorization: 'Bearer gk_live_not_a_key_at_all_000000000000' });
        assert.equal(refused.status, 429, `request ${n + 1} after the limit`);
        assert.equal(refused.json().code, 'rate_limited');
      }
    });
  });
}

type Screened = { list_versions: { list: string; version_id: string }[]; matches: { entry_id: string }[] };

/** An entry the fixture's SDN does not have, added in a second version of it. */
const ADDED = {
  entryId: '10090',
  subject: 'Ostap Vyrlenko',
  row: '10090,"VYRLENKO, Ostap","individual","UKRAINE-EO13660",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 03 Mar 1970."',
};

/** The OFAC fixture with ADDED in its SDN file, in a folder of its own: what an operator imports. */
function listsWithAnEntryAdded(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-sdn-'));
  for (const file of fs.readdirSync('test/fixtures/ofac')) fs.copyFileSync(path.join('test/fixtures/ofac', file), path.join(dir, file));
  // OFAC's legacy files end with a DOS end-of-file mark (0x1A): the row goes before it.
  const sdn = path.join(dir, 'sdn.csv');
  fs.writeFileSync(sdn, fs.readFileSync(sdn, 'latin1').replace(/\x1a?$/, `${ADDED.row}\r\n\x1a`), 'latin1');
  return dir;
}
