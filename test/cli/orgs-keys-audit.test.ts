/**
 * The gatehouse command as an operator uses it: real processes, JSON on stdout.
 * (The sandbox and --help have files of their own, so that each file stays well inside the runner's timeout.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { processDatabase, runCli } from '../helpers/server-process.ts';

let storage: Awaited<ReturnType<typeof processDatabase>>;
let env: Record<string, string>;
before(async () => {
  storage = await processDatabase();
  env = storage.env;
});
after(() => storage.cleanup());

const json = (args: string[]) => {
  const result = runCli(args, env);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
};

describe('gatehouse orgs, keys and audit', () => {
  let orgId: string;

  test('orgs create and list', () => {
    const created = json(['orgs', 'create', '--name', 'Acme Defense', '--tier', 'defense']);
    assert.match(created.id, /^org_[0-9a-z]{26}$/);
    assert.deepEqual([created.name, created.tier, created.state], ['Acme Defense', 'defense', 'active']);
    orgId = created.id;
    assert.ok(json(['orgs', 'list']).some((o: { id: string }) => o.id === orgId));
  });

  test('keys create prints the key once; list never shows it; revoke is final', () => {
    const created = json(['keys', 'create', '--org', orgId, '--name', 'gate 3', '--admin', '--sandbox']);
    assert.match(created.key, /^gk_test_/);
    assert.equal(created.admin, true);
    const listed = runCli(['keys', 'list', '--org', orgId], env);
    assert.ok(!listed.stdout.includes(created.key));
    assert.equal(JSON.parse(listed.stdout)[0].id, created.id);
    assert.equal(json(['keys', 'revoke', created.id, '--org', orgId]).state, 'revoked');
    const again = runCli(['keys', 'enable', created.id, '--org', orgId], env);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /revocation is final/);
  });

  test('tokens issue signs a JWT within the session policy', () => {
    const issued = json(['tokens', 'issue', '--org', orgId, '--subject', 'fso@example.com', '--role', 'adjudicator']);
    assert.equal(issued.token.split('.').length, 3);
    const [, payload] = issued.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    assert.deepEqual([claims.sub, claims.org, claims.role, claims.exp - claims.iat], ['fso@example.com', orgId, 'adjudicator', 3600]);
    const tooLong = runCli(['tokens', 'issue', '--org', orgId, '--subject', 'x@example.com', '--role', 'admin', '--ttl', '90000'], env);
    assert.equal(tooLong.code, 1);
    assert.match(tooLong.stderr, /session policy/);
  });

  test('orgs update changes settings, refuses bad values, and is audited', () => {
    const updated = json(['orgs', 'update', '--org', orgId, '--session-max-seconds', '900', '--rate-limit', '25']);
    assert.deepEqual([updated.session_max_seconds, updated.rate_limit_per_second], [900, 25]);
    assert.equal(json(['orgs', 'update', '--org', orgId, '--rate-limit', '0']).rate_limit_per_second, null);
    const bad = runCli(['orgs', 'update', '--org', orgId, '--session-max-seconds', '5'], env);
    assert.equal(bad.code, 1, 'the database refuses a policy under a minute');
    assert.equal(runCli(['orgs', 'update', '--org', orgId], env).code, 1, 'nothing to change');
  });

  test('audit verify reports every chain intact', () => {
    const report = json(['audit', 'verify']);
    assert.equal(report.intact, true);
    const mine = report.organizations.find((o: { organization_id: string }) => o.organization_id === orgId);
    assert.equal(mine.events, 6, 'organization.created, api_key.created, api_key.revoked, token.issued, organization.updated ×2');
  });

  test('mistakes get a message, not a stack trace, and a non-zero exit', () => {
    for (const args of [
      ['keys', 'list', '--org', 'org_nope'],
      ['orgs', 'create', '--name', 'x', '--tier', 'gold'],
    ]) {
      const result = runCli(args, env);
      assert.notEqual(result.code, 0, args.join(' '));
      assert.doesNotMatch(result.stderr, /\n\s+at /);
    }
  });
});
