/**
 * What one prescreen sends to the database once the service is warm, query by query, as the
 * drivers send it: the speed of every request rests on this staying three round trips (the key's
 * look-up, BEGIN with the tenant settings, the final writes with COMMIT), with the final writes
 * run by name as statements each session prepared once. A change that adds a round trip, sends a
 * final write as text again or prepares a statement anew on every request fails here.
 * (bench/load/round-trips.sh counts the same from PostgreSQL's statement log, for every request of the load mix.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTenant, type TestTenant } from '../helpers/credentials.ts';
import { type SentQuery, splitStatements, tapStatements } from '../helpers/statement-tap.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { loadTestLists } from '../helpers/test-lists.ts';

let harness: TestApp;
let tenant: TestTenant;
/** What each prepared name stands for, from the PREPAREs the warm-up sent. */
const preparedTexts = new Map<string, string>();

const prescreen = async (subject: string) => {
  const response = await harness.app.inject({ method: 'POST', url: '/api/v1/prescreen', headers: tenant.headers, payload: { subject } });
  assert.equal(response.statusCode, 201, response.body);
  return response.json() as { outcome: string; case_id: string | null };
};

/** The queries one prescreen sends. */
async function sentBy(subject: string): Promise<{ sent: SentQuery[]; outcome: string }> {
  const tap = tapStatements();
  try {
    const { outcome } = await prescreen(subject);
    return { sent: [...tap.sent], outcome };
  } finally {
    tap.close();
  }
}

const MATCH = 'Karim Yusuf Abu-Ali';
const CLEAR = 'Harriet Oyelaran-Lindqvist';

before(async () => {
  harness = await buildTestApp();
  tenant = await createTenant(harness.database.owner);
  await loadTestLists(harness);
  // Warm: each kind once, so that the session has prepared what they run and the rules are kept.
  const tap = tapStatements();
  try {
    assert.equal((await prescreen(MATCH)).outcome, 'potential_match');
    assert.equal((await prescreen(CLEAR)).outcome, 'clear');
  } finally {
    tap.close();
  }
  for (const { text } of tap.sent) {
    const prepare = /^PREPARE (\S+) AS ([\s\S]*)$/.exec(text);
    if (prepare) preparedTexts.set(prepare[1] as string, prepare[2] as string);
  }
});
after(() => harness.close());

describe('one prescreen, warm', () => {
  test('a potential match: three round trips; its five final writes run by name with COMMIT, the audit append last', async () => {
    await assertThreeRoundTrips(MATCH, 'potential_match', [
      'INSERT INTO "event_outbox"',
      'INSERT INTO "screenings"',
      'INSERT INTO "cases"',
      'INSERT INTO "case_events"',
      'SELECT append_audit_events',
    ]);
  });

  test('a clear answer: three round trips; its outbox event, screening and audit event run by name with COMMIT', async () => {
    await assertThreeRoundTrips(CLEAR, 'clear', ['INSERT INTO "event_outbox"', 'INSERT INTO "screenings"', 'SELECT append_audit_events']);
  });
});

/** The key's look-up, BEGIN with the settings, and the final writes (beginning as `finalWrites`) with COMMIT: nothing else. */
async function assertThreeRoundTrips(subject: string, outcome: string, finalWritesExpected: string[]) {
  const { sent, outcome: answered } = await sentBy(subject);
  assert.equal(answered, outcome);
  assert.equal(sent.length, 3, listed(sent));
  const [lookUp, opening, closing] = sent as [SentQuery, SentQuery, SentQuery];
  assertKeyLookUp(lookUp);
  assertOpening(opening);
  assert.deepEqual(finalWrites(closing), finalWritesExpected);
}

/** The queries, one a line, for a failure's message. */
const listed = (sent: SentQuery[]) => sent.map((q) => `${q.name ?? '-'} ${q.text.slice(0, 120)}`).join('\n');

/** The key's look-up: one parameterized statement on the owner's connection, prepared by name where the driver prepares (pg). */
function assertKeyLookUp(query: SentQuery) {
  assert.match(query.text, /FROM authenticate_api_key\(\$1\)/);
  assert.equal(query.parameters, 1);
  if (harness.database.backend === 'postgres') assert.match(query.name ?? '', /^gh_[0-9a-f]{24}$/, 'sent as a named prepared statement');
}

/** BEGIN, each tenant setting a SET LOCAL of its own run by EXECUTE in one DO block, and the settings stamp's read: one simple query. */
function assertOpening(query: SentQuery) {
  assert.equal(query.parameters, 0);
  const statements = splitStatements(query.text);
  assert.equal(statements.length, 3, query.text);
  assert.equal(statements[0], 'BEGIN');
  const executed = [...(statements[1] as string).matchAll(/EXECUTE E''SET LOCAL ([a-z_.]+) = /g)].map((match) => match[1]);
  assert.match(statements[1] as string, /^DO E'BEGIN EXECUTE /);
  ['role|session_authorization', 'citus\\.propagate_set_commands', 'app\\.organization_id', 'app\\.actor', 'statement_timeout'].forEach((setting, i) => {
    assert.match(executed[i] ?? '', new RegExp(`^(${setting})$`), setting);
  });
  assert.match(statements[2] as string, /^SELECT .*FROM settings_stamps WHERE organization_id = /, 'the settings stamp is read last, naming its organization');
}

/**
 * The final query: a header naming what it EXECUTEs, each final write EXECUTEd by a name the
 * session prepared during the warm-up, then COMMIT (and, on the embedded database, the owner put
 * back). Answers how each prepared statement begins, in the order they run.
 */
function finalWrites(query: SentQuery): string[] {
  assert.equal(query.parameters, 0);
  const header = /^\/\*prepare ([^*]*)\*\/ /.exec(query.text);
  assert.ok(header, `a header naming the prepared statements: ${query.text.slice(0, 80)}`);
  const statements = splitStatements(query.text.slice((header[0] as string).length));
  const commitAt = statements.indexOf('COMMIT');
  assert.ok(commitAt > 0, 'COMMIT travels in the same query');
  const tail = statements.slice(commitAt + 1);
  assert.ok(tail.length === 0 || (tail.length === 1 && /^SET SESSION AUTHORIZATION /.test(tail[0] as string)), `after COMMIT: ${tail.join('; ')}`);
  const names = statements.slice(0, commitAt).map((statement) => {
    const call = /^EXECUTE (gh_x_[0-9a-f]{24})\(E'/.exec(statement);
    assert.ok(call, `run by name: ${statement.slice(0, 80)}`);
    return call[1] as string;
  });
  assert.deepEqual((header[1] as string).split(' '), names, 'the header names what the query executes');
  return names.map((name) => {
    const text = preparedTexts.get(name);
    assert.ok(text, `${name} was prepared during the warm-up, and not again`);
    return (/^(?:WITH written AS \()?(INSERT INTO "\w+"|SELECT \w+)/.exec(text) ?? [text, text])[1];
  });
}
