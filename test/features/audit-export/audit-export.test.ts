import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { recordAudit } from '../../../src/audit/audit.ts';
import { findBreak } from '../../../src/audit/audit-chain.ts';
import { createKey, createTenant, type TestTenant } from '../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../helpers/test-app.ts';

let harness: TestApp;
let admin: TestTenant;
const EVENTS = 2_500; // more than two export batches

before(async () => {
  harness = await buildTestApp();
  admin = await createTenant(harness.database.owner, { admin: true, tier: 'enterprise' });
  const actor = { organizationId: admin.organizationId, kind: 'system' as const, id: 'seeder' };
  await harness.database.db.withTenant(actor, async (trx) => {
    for (let i = 1; i <= EVENTS; i++) {
      await recordAudit(
        trx,
        { actor, requestId: `seed-${i % 10}`, sourceIp: null },
        {
          action: i % 2 ? 'api_key.created' : 'api_key.disabled',
          target: { type: 'api_key', id: i === 7 ? '=HYPERLINK("http://evil")' : `key_${i}` },
          details: { i, note: 'plain, "quoted"' },
        },
      );
    }
  });
});
after(() => harness.close());

const exportOf = (query: string, headers: Record<string, string> = {}, as = admin) =>
  harness.app.inject({ url: `/api/v1/audit/export${query}`, headers: { ...as.headers, ...headers } });
const ndjson = (body: string) =>
  body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('audit export', () => {
  test('streams every event as NDJSON, oldest first, each with its chain hash, and the chain verifies', async () => {
    const response = await exportOf('');
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^application\/x-ndjson/);
    const lines = ndjson(response.body);
    assert.equal(lines.length, EVENTS + 1, 'the seeded events and the export itself');
    assert.deepEqual(
      lines.map((l) => l.seq),
      Array.from({ length: EVENTS + 1 }, (_, i) => i + 1),
    );
    assert.equal(lines.at(-1).action, 'audit.exported');
    const links = lines.map((l) => ({
      seq: l.seq,
      prev_hash: Buffer.from(l.prev_hash, 'hex'),
      hash: Buffer.from(l.hash, 'hex'),
      fields: (({ prev_hash, hash, cursor, ...fields }) => fields)(l),
    }));
    assert.equal(findBreak(links), undefined, 'anyone holding the export can re-check the chain');
  });

  test('filters by action, actor, request id and time', async () => {
    const byAction = ndjson((await exportOf('?action=api_key.disabled')).body);
    assert.equal(byAction.length, EVENTS / 2);
    assert.ok(byAction.every((l) => l.action === 'api_key.disabled'));
    const byRequest = ndjson((await exportOf('?request_id=seed-3&actor=seeder')).body);
    assert.equal(byRequest.length, EVENTS / 10);
    const future = (await exportOf(`?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).body;
    assert.equal(future, '');
    const bad = await exportOf('?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z');
    assert.equal(bad.statusCode, 400);
  });

  test('resumes after the cursor of the last line received', async () => {
    const all = ndjson((await exportOf('?action=api_key.created')).body);
    const resumed = ndjson((await exportOf(`?action=api_key.created&cursor=${all[99].cursor}`)).body);
    assert.deepEqual(
      resumed.map((l) => l.seq),
      all.slice(100).map((l) => l.seq),
    );
    const bogus = await exportOf('?cursor=not-a-cursor');
    assert.equal(bogus.statusCode, 400);
    assert.equal(bogus.json().errors[0].pointer, '/cursor');
  });

  test('CSV by format or Accept, with formula cells neutralised', async () => {
    for (const [query, headers] of [
      ['?format=csv&action=api_key.created', {}],
      ['?action=api_key.created', { accept: 'text/csv' }],
    ] as const) {
      const response = await exportOf(query, headers);
      assert.match(String(response.headers['content-type']), /^text\/csv/);
      const rows = response.body.trim().split('\r\n');
      assert.equal(rows[0]?.split(',')[0], 'seq');
      assert.equal(rows.length, EVENTS / 2 + 1);
    }
    const csv = (await exportOf('?format=csv&request_id=seed-7&action=api_key.created')).body;
    assert.ok(csv.includes(`"'=HYPERLINK(""http://evil"")"`), 'the formula is kept as text, quoted and escaped');
    assert.ok(!/(^|,)"?=/m.test(csv), 'no cell starts with =');
  });

  test('is audited, needs an admin, and is Enterprise-only', async () => {
    const before = Number((await harness.database.owner<{ n: number }>(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'audit.exported'`))[0]?.n);
    await exportOf('?action=none.such', { 'x-request-id': 'export-audit-check' });
    const recorded = await harness.database.owner<{ request_id: string }>(
      `SELECT request_id FROM audit_events WHERE action = 'audit.exported' ORDER BY seq DESC LIMIT 1`,
    );
    assert.equal(recorded[0]?.request_id, 'export-audit-check');
    assert.equal(
      Number((await harness.database.owner<{ n: number }>(`SELECT count(*)::int AS n FROM audit_events WHERE action = 'audit.exported'`))[0]?.n),
      before + 1,
    );

    const standard = await createKey(harness.database.owner, admin.organizationId);
    assert.equal((await exportOf('', {}, { ...admin, ...standard })).statusCode, 403);
    const defense = await createTenant(harness.database.owner, { admin: true, tier: 'defense' });
    const refused = await exportOf('', {}, defense);
    assert.equal(refused.json().code, 'tier_required');
  });

  test("never includes another organization's events", async () => {
    const other = await createTenant(harness.database.owner, { admin: true, tier: 'enterprise' });
    const lines = ndjson((await exportOf('', {}, other)).body);
    assert.deepEqual(
      lines.map((l) => l.action),
      ['audit.exported'],
    );
  });
});
