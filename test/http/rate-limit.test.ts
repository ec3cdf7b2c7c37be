import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { generateApiKey } from '../../src/auth/api-key-format.ts';
import { createKey, createTenant, type TestTenant } from '../helpers/credentials.ts';
import { probeFeature } from '../helpers/probe-feature.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';

let harness: TestApp;
let defense: TestTenant;
before(async () => {
  harness = await buildTestApp({
    features: [probeFeature],
    env: { RATE_LIMIT_DEFENSE_PER_SECOND: '2', RATE_LIMIT_ENTERPRISE_PER_SECOND: '1000', AUTH_FAILURES_PER_MINUTE: '3' },
  });
  defense = await createTenant(harness.database.owner, { tier: 'defense' });
});
after(() => harness.close());

const probe = (headers: Record<string, string>, remoteAddress = '10.0.0.1') => harness.app.inject({ url: '/api/v1/probes/slow?ms=0', headers, remoteAddress });

describe('rate limits', () => {
  test('every answer states the policy and what remains; past the burst, 429 with Retry-After', async () => {
    // All at once, so that no token comes back in between, however slow the machine.
    const answers = await Promise.all(Array.from({ length: 5 }, () => probe(defense.headers)));
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 200, 200, 200, 429], 'a burst of twice the rate of 2/s');
    const accepted = answers.filter((a) => a.statusCode === 200);
    assert.equal(accepted[0]?.headers['ratelimit-policy'], '"credential";q=4;w=2');
    assert.deepEqual(accepted.map((a) => /r=(\d+)/.exec(String(a.headers.ratelimit))?.[1]).sort(), ['0', '1', '2', '3']);
    const refused = answers.find((a) => a.statusCode === 429) as (typeof answers)[number];
    assert.equal(refused.json().code, 'rate_limited');
    assert.ok(Number(refused.headers['retry-after']) >= 1);
  });

  test('each credential has its own bucket, and an organization may have its own rate', async () => {
    const second = await createKey(harness.database.owner, defense.organizationId);
    assert.equal((await probe(second.headers)).statusCode, 200);
    const generous = await createTenant(harness.database.owner, { tier: 'defense' });
    await harness.database.owner('UPDATE organizations SET rate_limit_per_second = 50 WHERE id = $1', [generous.organizationId]);
    const response = await probe(generous.headers);
    assert.equal(response.headers['ratelimit-policy'], '"credential";q=100;w=2');
  });

  test('failed authentications are limited per source address', async () => {
    const wrong = { authorization: `Bearer ${generateApiKey('live')}` };
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await probe(wrong, '10.9.9.9')).json().code);
    assert.deepEqual(codes, ['unauthenticated', 'unauthenticated', 'unauthenticated', 'rate_limited']);
    const tenant = await createTenant(harness.database.owner, { tier: 'enterprise' });
    assert.equal((await probe(tenant.headers, '10.9.9.9')).json().code, 'rate_limited', 'even a good key from that address waits');
    assert.equal((await probe(tenant.headers, '10.9.9.10')).statusCode, 200, 'other addresses are unaffected');
  });
});

describe('failed authentications', () => {
  test('are audited in the organization they concern, without the credential', async () => {
    const revoked = await createKey(harness.database.owner, defense.organizationId, { state: 'revoked' });
    await probe({ ...revoked.headers, 'x-request-id': 'failed-auth-1' }, '10.1.2.3');
    const rows = await harness.database.owner<Record<string, unknown>>(
      `SELECT actor_type, actor_id, action, outcome, source_ip, details FROM audit_events WHERE request_id = 'failed-auth-1'`,
    );
    assert.deepEqual(rows, [
      {
        actor_type: 'api_key',
        actor_id: revoked.keyId,
        action: 'authentication.failed',
        outcome: 'failure',
        source_ip: '10.1.2.3',
        details: { reason: 'key_revoked' },
      },
    ]);
    const everything = JSON.stringify(await harness.database.owner('SELECT * FROM audit_events'));
    assert.ok(!everything.includes(revoked.key));
  });
});
