/**
 * Console users: the one-time setup link, the password rules, signing in and the lock after
 * repeated failures, the session cookie and the session policy that bounds it, signing out, and
 * disabling someone. Every step is looked for in the audit trail.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AuditContext } from '../../../src/audit/audit.ts';
import { createUserService, SIGN_IN_ATTEMPTS } from '../../../src/features/console/users/user-service.ts';
import { ConsoleClient, pageText, TEST_PASSWORD } from '../../helpers/console-client.ts';
import { createOrganization } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';

const SESSION = '__Host-gatehouse_session';

let harness: TestApp;
let organizationId: string;
let operator: AuditContext;
const users = () => createUserService(harness.database.db.withTenant);
const auditActions = async (email: string) =>
  (
    await harness.database.owner<{ action: string; outcome: string }>(
      "SELECT action, outcome FROM audit_events WHERE organization_id = $1 AND details->>'email' = $2 ORDER BY seq",
      [organizationId, email],
    )
  ).map((e) => `${e.action}${e.outcome === 'failure' ? ' (failure)' : ''}`);

before(async () => {
  harness = await buildTestApp();
  organizationId = await createOrganization(harness.database.owner, { tier: 'enterprise' });
  operator = { actor: { organizationId, kind: 'system', id: 'cli', role: null }, requestId: null, sourceIp: null };
});
after(() => harness.close());

describe('the setup link', () => {
  test('sets a password once, refusing weak or mismatched ones, and signs the person in', async () => {
    const { user, setupToken } = await users().create(operator, { email: ' New.Officer@Example.com ', role: 'adjudicator' });
    assert.equal(user.email, 'new.officer@example.com');
    const client = new ConsoleClient(harness);
    const form = await client.get(`/console/setup?token=${setupToken}`);
    assert.match(pageText(form.body), /Set your password/);
    assert.match(form.body, /value="new\.officer@example\.com"/);

    const short = await client.post('/console/setup', { token: setupToken, password: 'short', confirm: 'short' });
    assert.equal(short.statusCode, 400);
    assert.match(pageText(short.body), /at least 12 characters/);
    const mismatch = await client.post('/console/setup', { token: setupToken, password: TEST_PASSWORD, confirm: `${TEST_PASSWORD}!` });
    assert.equal(mismatch.statusCode, 400);
    assert.match(pageText(mismatch.body), /not the same/);
    const [stored] = await harness.database.owner<{ password_hash: string | null }>('SELECT password_hash FROM console_users WHERE id = $1', [user.id]);
    assert.equal(stored?.password_hash, null, 'nothing is stored from a refused password');

    const done = await client.post('/console/setup', { token: setupToken, password: TEST_PASSWORD, confirm: TEST_PASSWORD });
    assert.equal(done.statusCode, 303);
    assert.equal(done.headers.location, '/console');
    assert.ok(client.cookies.has(SESSION));
    const [hashed] = await harness.database.owner<{ password_hash: string; setup_token_sha256: string | null }>(
      'SELECT password_hash, setup_token_sha256 FROM console_users WHERE id = $1',
      [user.id],
    );
    assert.match(hashed?.password_hash ?? '', /^scrypt\$17\$8\$1\$/);
    assert.ok(!hashed?.password_hash.includes(TEST_PASSWORD));
    assert.equal(hashed?.setup_token_sha256, null);

    const again = await new ConsoleClient(harness).get(`/console/setup?token=${setupToken}`);
    assert.equal(again.statusCode, 404, 'the link works once');
    assert.deepEqual(await auditActions('new.officer@example.com'), ['console_user.created', 'console_user.password_set']);
  });

  test('an expired or replaced link cannot be used', async () => {
    const { setupToken: first } = await users().create(operator, { email: 'late@example.com', role: 'viewer' });
    const { setupToken: second } = await users().issueSetupLink(operator, 'late@example.com');
    assert.equal((await new ConsoleClient(harness).get(`/console/setup?token=${first}`)).statusCode, 404);
    await harness.database.owner("UPDATE console_users SET setup_expires_at = now() - interval '1 minute' WHERE email = 'late@example.com'");
    const expired = await new ConsoleClient(harness).get(`/console/setup?token=${second}`);
    assert.equal(expired.statusCode, 404);
    assert.match(pageText(expired.body), /expired/);
  });

  test('an address signs in to one organization only', async () => {
    const other = await createOrganization(harness.database.owner);
    await assert.rejects(
      users().create({ ...operator, actor: { ...operator.actor, organizationId: other } }, { email: 'NEW.OFFICER@example.com', role: 'viewer' }),
      /already signs in to an organization/,
    );
  });
});

describe('signing in', () => {
  let client: ConsoleClient;
  const email = 'fso@example.com';
  before(async () => {
    const { setupToken } = await users().create(operator, { email, role: 'admin' });
    await new ConsoleClient(harness).setUp(setupToken);
    client = new ConsoleClient(harness);
  });

  test('gives an HttpOnly, Secure, SameSite=Strict session cookie no longer than the session policy', async () => {
    const response = await client.signIn(email);
    assert.equal(response.statusCode, 303);
    const cookie = (response.cookies as { name: string; httpOnly?: boolean; secure?: boolean; sameSite?: string; maxAge?: number; path?: string }[]).find(
      (c) => c.name === SESSION,
    );
    assert.ok(cookie);
    assert.deepEqual([cookie.httpOnly, cookie.secure, cookie.sameSite, cookie.path], [true, true, 'Strict', '/']);
    assert.ok(cookie.maxAge && cookie.maxAge <= 3600 && cookie.maxAge > 3500, String(cookie.maxAge));
    const page = await client.get('/console/queue');
    assert.equal(page.statusCode, 200);
    assert.match(pageText(page.body), /Signed in as fso@example\.com \(admin\)/);
  });

  test('refuses a wrong password or an unknown address with the same words', async () => {
    const wrong = await new ConsoleClient(harness).signIn(email, 'not the password at all');
    const unknown = await new ConsoleClient(harness).signIn('nobody@example.com', 'not the password at all');
    assert.deepEqual([wrong.statusCode, unknown.statusCode], [401, 401]);
    const words = (body: string) => /The email address or password is not right\./.exec(pageText(body))?.[0];
    assert.ok(words(wrong.body));
    assert.equal(words(wrong.body), words(unknown.body));
  });

  test(`locks the account after ${SIGN_IN_ATTEMPTS} failures in a row, even against the right password; a new setup link unlocks it`, async () => {
    const { setupToken } = await users().create(operator, { email: 'target@example.com', role: 'viewer' });
    await new ConsoleClient(harness).setUp(setupToken);
    for (let i = 0; i < SIGN_IN_ATTEMPTS; i++)
      assert.equal((await new ConsoleClient(harness).signIn('target@example.com', `guess number ${i}!`)).statusCode, 401);
    const locked = await new ConsoleClient(harness).signIn('target@example.com');
    assert.equal(locked.statusCode, 401, 'the right password is refused while locked');
    const actions = await auditActions('target@example.com');
    assert.deepEqual(actions.slice(-3), ['console_user.sign_in_failed (failure)', 'console_user.locked', 'console_user.sign_in_failed (failure)']);
    const [reason] = await harness.database.owner<{ reason: string }>(
      "SELECT details->>'reason' AS reason FROM audit_events WHERE organization_id = $1 AND details->>'email' = 'target@example.com' ORDER BY seq DESC LIMIT 1",
      [organizationId],
    );
    assert.equal(reason?.reason, 'locked', 'the trail knows it was the lock');

    // To the person signing in, a locked account reads as a wrong password or an unknown address: the page is the same.
    const lockedWrong = await new ConsoleClient(harness).signIn('target@example.com', 'another guess entirely');
    const unknown = await new ConsoleClient(harness).signIn('nobody.at.all@example.com', 'another guess entirely');
    const wrong = await new ConsoleClient(harness).signIn(email, 'another guess entirely');
    const shown = (body: string) => pageText(body).replace(/\s+/g, ' ');
    for (const answer of [locked, lockedWrong, unknown]) {
      assert.equal(answer.statusCode, wrong.statusCode);
      assert.equal(shown(answer.body), shown(wrong.body));
    }
    assert.doesNotMatch(pageText(locked.body), /locked until|is locked|too many/i);

    const { setupToken: fresh } = await users().issueSetupLink(operator, 'target@example.com');
    await new ConsoleClient(harness).setUp(fresh, 'a brand new passphrase');
    assert.equal((await new ConsoleClient(harness).signIn('target@example.com', 'a brand new passphrase')).statusCode, 303);
  });

  test('signing out revokes the token: the same cookie is refused afterwards', async () => {
    const signedIn = new ConsoleClient(harness);
    await signedIn.signIn(email);
    const stolen = signedIn.cookies.get(SESSION) as string;
    await signedIn.get('/console/visitors');
    const out = await signedIn.post('/console/sign-out');
    assert.equal(out.statusCode, 303);
    assert.equal(out.headers.location, '/console/sign-in?notice=signed_out');
    assert.ok(!signedIn.cookies.has(SESSION), 'the cookie is cleared');
    const replay = new ConsoleClient(harness);
    replay.cookies.set(SESSION, stolen);
    const refused = await replay.get('/console/visitors');
    assert.equal(refused.statusCode, 303);
    assert.equal(refused.headers.location, '/console/sign-in?next=%2Fconsole%2Fvisitors&notice=expired');
    const [revoked] = await harness.database.owner<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_events WHERE organization_id = $1 AND action = 'token.revoked' AND actor_id = $2",
      [organizationId, email],
    );
    assert.equal(revoked?.n, 1);
  });

  test("the session lives no longer than the organization's session policy", async () => {
    await harness.database.owner('UPDATE organizations SET session_max_seconds = 120 WHERE id = $1', [organizationId]);
    try {
      const response = await new ConsoleClient(harness).signIn(email);
      const cookie = (response.cookies as { name: string; value: string; maxAge?: number }[]).find((c) => c.name === SESSION);
      assert.ok(cookie?.maxAge && cookie.maxAge <= 120);
      const claims = JSON.parse(Buffer.from(cookie.value.split('.')[1] as string, 'base64url').toString());
      assert.equal(claims.exp - claims.iat, 120);
    } finally {
      await harness.database.owner('UPDATE organizations SET session_max_seconds = 3600 WHERE id = $1', [organizationId]);
    }
  });

  test('disabling a person ends their session at their next request', async () => {
    const { setupToken } = await users().create(operator, { email: 'leaver@example.com', role: 'adjudicator' });
    const leaver = new ConsoleClient(harness);
    await leaver.setUp(setupToken);
    assert.equal((await leaver.get('/console/visitors')).statusCode, 200);
    await users().setState(operator, 'leaver@example.com', 'disabled');
    assert.equal((await leaver.get('/console/visitors')).statusCode, 303);
    assert.equal((await new ConsoleClient(harness).signIn('leaver@example.com')).statusCode, 401);
    assert.deepEqual((await auditActions('leaver@example.com')).slice(-2), ['console_user.disabled', 'console_user.sign_in_failed (failure)']);
  });
});

describe('a console reached by plain http (CONSOLE_SECURE_COOKIES=false)', () => {
  test('has cookies without Secure or the __Host- prefix, sent to /console only', async () => {
    const plain = await buildTestApp({ env: { CONSOLE_SECURE_COOKIES: 'false' } });
    try {
      const organization = await createOrganization(plain.database.owner);
      const context = { ...operator, actor: { ...operator.actor, organizationId: organization } };
      const { setupToken } = await createUserService(plain.database.db.withTenant).create(context, { email: 'plain@example.com', role: 'viewer' });
      const done = await new ConsoleClient(plain).setUp(setupToken);
      const cookies = (done.cookies as { name: string; secure?: boolean; path?: string; httpOnly?: boolean; sameSite?: string }[]).map((c) => [
        c.name,
        Boolean(c.secure),
        c.path,
        c.httpOnly,
        c.sameSite,
      ]);
      assert.deepEqual(cookies, [['gatehouse_session', false, '/console', true, 'Strict']]);
    } finally {
      await plain.close();
    }
  });
});
