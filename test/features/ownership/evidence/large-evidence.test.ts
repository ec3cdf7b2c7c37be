/**
 * The evidence of a check of 1,000 parties (large-structure.ts), made by the real POST
 * /api/v1/ownership/check: hundreds of covered owners, inherited restrictions and parties, so
 * that every table runs over many pages. Each page is headed and numbered, each table's header
 * is repeated on every page it runs onto, and the sums and the last rows are there.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { EvidenceOwnershipCheck } from '../../../../src/features/ownership/evidence/ownership-evidence-input.ts';
import { renderOwnershipEvidencePdf } from '../../../../src/features/ownership/evidence/render-ownership-evidence.ts';
import { pdfPages, skipWithoutPdftotext } from '../../../evidence/pdf-text.ts';
import { createTenant } from '../../../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../../../helpers/test-app.ts';
import { thousandParties } from './large-structure.ts';
import { ORGANIZATION, storedCheck } from './stored-check.ts';

describe('ownership evidence of a 1,000-party check', { skip: skipWithoutPdftotext() }, () => {
  let harness: TestApp;
  let check: EvidenceOwnershipCheck;
  let pages: string[];

  before(async () => {
    harness = await buildTestApp();
    const tenant = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    check = await storedCheck(harness, tenant, thousandParties());
    pages = pdfPages(await renderOwnershipEvidencePdf({ organization: ORGANIZATION, check }));
  });
  after(() => harness.close());

  test('the check is as large as it says', () => {
    assert.equal(check.request.entities.length, 1_000);
    assert.deepEqual([check.answer.ofac.contributors.length, check.answer.ofac.paths_truncated, check.answer.entities.length], [255, true, 506]);
  });

  test('runs over a sane number of pages, each headed and numbered', () => {
    // About 1,500 table rows at some 45 a page; a row a page, or rows lost, would fall outside.
    assert.ok(pages.length > 30 && pages.length < 100, `${pages.length} pages`);
    pages.forEach((page, i) => {
      assert.ok(page.startsWith(`${ORGANIZATION.name} · Ownership determination ${check.id}`), `page ${i + 1} header`);
      assert.ok(page.endsWith(`Page ${i + 1} of ${pages.length}`), `page ${i + 1} number`);
    });
  });

  test("every page a table runs onto starts it with the table's header", () => {
    const tables = [
      { row: /Direct owner \d+ \(D\d+\) 0\.1% listed yes/, header: 'Covered owner of the target Stake Covered as Certain' },
      { row: /Direct owner \d+ \(D\d+\) OFAC_SDN$|Direct owner \d+ \(D\d+\) OFAC_SDN /, header: 'Restrictions inherited from Lists' },
      { row: /Direct owner \d+ \(D\d+\) person, RU OFAC_SDN/, header: 'Designations OFAC BIS' },
    ];
    for (const { row, header } of tables) {
      const spanned = pages.map((page, i) => [page, i] as const).filter(([page]) => row.test(page));
      assert.ok(spanned.length >= 3, `${header}: a table of hundreds of rows spans pages`);
      for (const [page, i] of spanned) {
        const first = page.search(row);
        const head = page.indexOf(header);
        assert.ok(head >= 0 && head < first, `page ${i + 1}: rows of "${header}" without the header above them`);
      }
    }
  });

  test('the sums, the paths and the last rows are there', () => {
    const text = pages.join(' ');
    const sum = 'Target Trading Limited (T): the 255 certain stakes in the table above = 74.5% ≥ 50%';
    assert.equal(text.split(sum).length - 1, 2, 'one for each rule');
    assert.ok(text.includes('Holding 0 Limited (H0): 2% held by Owner 0 of Holding 0 (H0-P0) + 2% held by Owner 1 of Holding 0 (H0-P1)'));
    assert.ok(text.includes('+ 2% held by Owner 24 of Holding 0 (H0-P24) = 50% ≥ 50%'));
    assert.ok(text.includes('the first 50 paths; there are more.'));
    assert.ok(text.includes('Path 50 of 50'));
    assert.ok(text.includes('Direct owner 244 (D244) person, RU OFAC_SDN'), 'the last party row');
    assert.ok(!text.includes('Direct owner 245 (D245)'), 'an owner not listed bears on nothing');
    assert.ok(text.includes('Inherited from 495 listed parties, in the table below'));
  });
});
