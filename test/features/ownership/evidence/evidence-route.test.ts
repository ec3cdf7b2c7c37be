/**
 * GET /ownership/checks/{id}/evidence: a stored determination downloads as its PDF, the download
 * is audited, and another organization's determination answers 404 with nothing rendered.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FAQ_401_EXAMPLE_3 } from '../../../../src/features/ownership/request-examples.ts';
import { pdfPages, skipWithoutPdftotext } from '../../../evidence/pdf-text.ts';
import { createTenant, type TestTenant } from '../../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../../helpers/test-app.ts';

describe('GET /api/v1/ownership/checks/{id}/evidence', () => {
  let harness: TestApp;
  let tenant: TestTenant;
  let other: TestTenant;
  let checked: { id: string; record_sha256: string };
  const evidence = (id: string, who: TestTenant) => harness.app.inject({ method: 'GET', url: `/api/v1/ownership/checks/${id}/evidence`, headers: who.headers });
  const downloads = async (id: string) =>
    (
      await harness.database.owner<{ n: number }>(
        "SELECT count(*)::int AS n FROM audit_events WHERE action = 'ownership_check.evidence_downloaded' AND target_id = $1 AND outcome = 'success'",
        [id],
      )
    )[0]?.n;

  before(async () => {
    harness = await buildTestApp();
    tenant = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    other = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    const response = await harness.app.inject({
      method: 'POST',
      url: '/api/v1/ownership/check',
      headers: tenant.headers,
      payload: { ...FAQ_401_EXAMPLE_3, screen_names: false, store: true },
    });
    checked = response.json();
  });
  after(() => harness.close());

  test('the PDF names the determination and its record hash, and each download is audited', { skip: skipWithoutPdftotext() }, async () => {
    const response = await evidence(checked.id, tenant);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['content-type'], 'application/pdf');
    const text = pdfPages(response.rawPayload).join('\n').replace(/\s+/g, ' ');
    assert.match(text, new RegExp(`Ownership determination ${checked.id}`));
    assert.ok(text.includes(checked.record_sha256), 'the record hash is in the document');
    assert.equal(await downloads(checked.id), 1);
  });

  test("another organization's determination answers 404, and an unknown id too", async () => {
    assert.equal((await evidence(checked.id, other)).statusCode, 404);
    assert.equal((await evidence('own_00000000000000000000000000', tenant)).statusCode, 404);
  });
});
