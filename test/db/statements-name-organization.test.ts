/**
 * Every statement the service sends inside a tenant transaction names the organization for each
 * tenant table it reads, updates or deletes from: the query builder's through the second wall
 * (src/db/tenant-predicate.ts), SQL written by hand by its own store. Row-level security already
 * holds every statement to one organization; the predicate is what lets a distributed engine
 * (Citus, issue 28) send the statement to that organization's shard alone, and this holds it on
 * plain PostgreSQL and the embedded database, so that it cannot regress unseen.
 *
 * The statements are those of the main flows, as the drivers send them: a prescreen that opens a
 * case, the case read, queued and decided, a check-in and check-out, vendors screened, an
 * ownership determination stored and read, a workforce sync, a webhook endpoint, an API key, the
 * adjudication rules, the audit trail read and verified, and a monitoring run queued, claimed and worked.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { TENANT_TABLES } from '../../src/db/tenant-predicate.ts';
import { FAQ_401_EXAMPLE_3 } from '../../src/features/ownership/request-examples.ts';
import { createTenant, type TestTenant } from '../helpers/credentials.ts';
import { type SentQuery, splitStatements, tapStatements } from '../helpers/statement-tap.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { loadTestLists, SDN_ROWS, sdnList } from '../helpers/test-lists.ts';

let harness: TestApp;
let org: TestTenant;
let sent: SentQuery[] = [];

const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
  const response = await harness.app.inject({ method, url: `/api/v1${url}`, headers: org.headers, ...(payload && { payload }) });
  assert.ok(response.statusCode < 300, `${method} ${url}: ${response.body}`);
  return String(response.headers['content-type']).startsWith('application/json') ? response.json() : {};
};

before(async () => {
  harness = await buildTestApp();
  org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
  const tap = tapStatements();
  await loadTestLists(harness);
  try {
    const screened = await call('POST', '/prescreen', { subject: 'Karim Yusuf Abu-Ali' });
    await call('GET', `/adjudication/${screened.case_id}`);
    await call('GET', '/adjudication/queue');
    await call('POST', `/adjudication/${screened.case_id}/assign`, { assignee: 'reviewer@example.com' });
    await call('POST', `/adjudication/${screened.case_id}/notes`, { text: 'Looked at the entry.' });
    await call('POST', `/adjudication/${screened.case_id}/disposition`, { disposition: 'CLEARED', reason: 'Another person.' });
    await call('GET', `/screenings/${screened.id}`);
    const visit = await call('POST', '/checkin', { visitor: { name: 'Harriet Oyelaran-Lindqvist' }, site: 'HQ-1' });
    await call('POST', `/sessions/${visit.id}/update`, { status: 'checked_out' });
    await call('GET', '/sessions');
    await call('POST', '/vendors/screen', { vendors: [{ name: 'Quillon Precision Components', country: 'DE' }] });
    const determination = await call('POST', '/ownership/check', { ...FAQ_401_EXAMPLE_3, screen_names: false, store: true });
    await call('GET', `/ownership/checks/${determination.id}`);
    await call('GET', '/ownership/checks');
    await call('PUT', '/workforce/sync', { mode: 'upsert', profiles: [{ external_id: 'W-1', name: 'Ingeborg Abrahamsen-Tull' }] });
    await call('POST', '/webhook-endpoints', { url: 'https://1.1.1.1/gatehouse-hook', events: ['case.opened'] });
    await call('GET', '/webhook-endpoints');
    await call('GET', '/adjudication/rules');
    await call('PUT', '/adjudication/rules', { sla_hours: { critical: 2 } });
    await call('GET', '/audit/export');
    await call('GET', '/events');
    await call('GET', '/api-keys');
    await call('GET', '/lists');
    // A keyed request: its key reserved, completed, and expired keys purged.
    const keyed = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/prescreen',
      headers: { ...org.headers, 'idempotency-key': 'shape-test-1' },
      payload: { subject: 'Harriet Oyelaran-Lindqvist' },
    });
    assert.equal(keyed.statusCode, 201, keyed.body);
    // A list version that adds an entry: monitoring queues its runs, polls, claims and works them.
    await loadTestLists(harness, [
      sdnList([...SDN_ROWS, `40001,"ORLOVA, Svetlana Ivanovna","individual","RUSSIA-EO14024",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- `]),
    ]);
    assert.equal(await harness.app.services.monitoring.queueRuns(), 1);
    assert.ok((await harness.app.services.monitoring.workRuns()) > 0);
  } finally {
    tap.close();
  }
  sent = tap.sent;
});
after(() => harness.close());

/** The statements sent inside tenant transactions: from a connection's BEGIN with the tenant settings to its COMMIT or ROLLBACK. */
function tenantStatements(queries: readonly SentQuery[]): string[] {
  const inside = new Map<number, boolean>();
  const statements: string[] = [];
  for (const query of queries) {
    const parts = splitStatements(query.text.replace(/^\/\*[\s\S]*?\*\/\s*/, ''));
    if (parts[0] === 'BEGIN' && parts[1]?.startsWith('DO ') && parts[1].includes('SET LOCAL')) inside.set(query.connection, true);
    if (inside.get(query.connection)) statements.push(...parts.map((p) => p.replace(/^PREPARE \S+ AS /, '')));
    if (parts.some((p) => p === 'COMMIT' || p === 'ROLLBACK')) inside.set(query.connection, false);
  }
  return statements;
}

const NOT_AN_ALIAS = new Set([
  'where',
  'inner',
  'left',
  'right',
  'full',
  'cross',
  'join',
  'on',
  'order',
  'group',
  'limit',
  'for',
  'set',
  'returning',
  'using',
  'union',
  'as',
  'offset',
]);

/** Each tenant table the statement reads, updates or deletes from, with the name it refers to it by. */
function tenantReads(statement: string): { table: string; name: string }[] {
  const found: { table: string; name: string }[] = [];
  for (const match of statement.matchAll(/\b(?:from|join|update)\s+(?:only\s+)?"?([a-z_]+)"?(?:\s+(?:as\s+)?"?([a-z_]+)"?)?/gi)) {
    const table = (match[1] as string).toLowerCase();
    if (!TENANT_TABLES.has(table)) continue;
    const alias = match[2]?.toLowerCase();
    found.push({ table, name: alias && !NOT_AN_ALIAS.has(alias) ? alias : table });
  }
  return found;
}

test('the flows ran inside tenant transactions, reading tenant tables', () => {
  const statements = tenantStatements(sent);
  assert.ok(statements.filter((s) => tenantReads(s).length > 0).length > 50, 'a good many statements read tenant tables');
});

test('every statement that reads a tenant table names the organization for it', () => {
  const unnamed = new Set<string>();
  for (const statement of tenantStatements(sent)) {
    if (/^(INSERT|BEGIN|SET|COMMIT|ROLLBACK|EXECUTE|SAVEPOINT|RELEASE)\b/i.test(statement)) continue;
    for (const { table, name } of tenantReads(statement)) {
      const qualified = new RegExp(`"?${name}"?\\."?organization_id"?\\s*=`, 'i');
      const bare = /(?<![."\w])"?organization_id"?\s*=/i;
      if (!qualified.test(statement) && !bare.test(statement)) unnamed.add(`${table}: ${statement.slice(0, 240)}`);
    }
  }
  assert.deepEqual([...unnamed], []);
});

/**
 * Statement shapes Citus refuses or runs wrongly, kept out on PostgreSQL and the embedded database
 * (ARCHITECTURE.md, "On Citus"): every statement the flows sent, the owner's too.
 */
const everyStatement = () =>
  sent.flatMap((query) => splitStatements(query.text.replace(/^\/\*[\s\S]*?\*\/\s*/, '')).map((p) => p.replace(/^PREPARE \S+ AS /, '')));

test('on Citus shapes: no ctid, no subquery in INSERT … VALUES, no now() in ON CONFLICT', () => {
  const statements = everyStatement();
  assert.ok(
    statements.some((s) => /\bON CONFLICT\b.*\bDO UPDATE\b/is.test(s)),
    'the flows sent an upsert',
  );
  const refused = statements.filter(
    (s) =>
      /\bctid\b/i.test(s) ||
      // INSERT INTO t [AS a] [(columns)] VALUES (… (SELECT …) …): a VALUES list in a FROM, read by a SELECT, is no such thing.
      /^INSERT\s+INTO\s+\S+(?:\s+AS\s+\S+)?\s*(?:\([^)]*\))?\s*VALUES\b[^]*?\(\s*SELECT\b/i.test(s.split(/\bON CONFLICT\b/i)[0] as string) ||
      /\bON CONFLICT\b[^]*\b(now|clock_timestamp|statement_timestamp|current_timestamp)\b/i.test(s),
  );
  assert.deepEqual(refused, []);
});

test('on Citus shapes: an INSERT … SELECT from a function returns what it writes (else Citus sends it by COPY, refused under row-level security)', () => {
  const fromFunction = everyStatement().filter((s) => /\bINSERT INTO\b[^]*\bSELECT\b[^]*\bFROM jsonb_populate_recordset\b/i.test(s));
  assert.ok(fromFunction.length > 0, 'the flows wrote rows at commit');
  assert.deepEqual(
    fromFunction.filter((s) => !/\bRETURNING\b/i.test(s)),
    [],
  );
});

test('on Citus shapes: a row lock names the organization, inside a tenant transaction', () => {
  const locks = tenantStatements(sent).filter((s) => /\bFOR (UPDATE|SHARE|NO KEY UPDATE)\b/i.test(s));
  assert.ok(locks.length > 0, 'the flows locked rows');
  assert.deepEqual(
    locks.filter((s) => !/"?organization_id"?\s*=/i.test(s)),
    [],
  );
});
