/**
 * `gatehouse users` as an operator uses it: a console user created with a one-time setup link
 * (printed once, kept only as a hash), a new link on request, and disabling, all as JSON.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { processDatabase, runCli } from '../helpers/server-process.ts';

let storage: Awaited<ReturnType<typeof processDatabase>>;
before(async () => {
  storage = await processDatabase();
});
after(() => storage.cleanup());

const json = (args: string[]) => {
  const result = runCli(args, storage.env);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
};

test('users create prints a one-time setup link; reset replaces it; list shows neither; disable', () => {
  const org = json(['orgs', 'create', '--name', 'Northgate', '--tier', 'enterprise']).id;
  const created = json([
    'users',
    'create',
    '--org',
    org,
    '--email',
    'FSO@Example.com',
    '--role',
    'adjudicator',
    '--base-url',
    'https://gatehouse.example.com/',
  ]);
  assert.deepEqual([created.email, created.role, created.state, created.password_set], ['fso@example.com', 'adjudicator', 'active', false]);
  assert.match(created.setup_url, /^https:\/\/gatehouse\.example\.com\/console\/setup\?token=[A-Za-z0-9_-]{43}$/);
  const token = new URL(created.setup_url).searchParams.get('token') as string;

  const again = runCli(['users', 'create', '--org', org, '--email', 'fso@example.com', '--role', 'viewer'], storage.env);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /already signs in to an organization/);

  const reset = json(['users', 'reset', '--org', org, '--email', 'fso@example.com']);
  assert.match(reset.setup_url, /^http:\/\/127\.0\.0\.1:8080\/console\/setup\?token=/, 'the default address is where this configuration listens');
  assert.notEqual(new URL(reset.setup_url).searchParams.get('token'), token);

  const listed = runCli(['users', 'list', '--org', org], storage.env);
  assert.ok(!listed.stdout.includes(token) && !listed.stdout.includes('setup_url'));
  assert.equal(JSON.parse(listed.stdout)[0].email, 'fso@example.com');
  assert.equal(json(['users', 'disable', '--org', org, '--email', 'fso@example.com']).state, 'disabled');
});
