/**
 * The evidence PDF of a stored ownership check, rendered from checks made by the real POST
 * /api/v1/ownership/check (stored-check.ts) and read back as a reader's tools read it: its text
 * with pdftotext, its pages as images with pdftoppm.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { formatScore } from '../../../../src/evidence/evidence-format.ts';
import type { EvidenceOwnershipCheck, GraphBox, GraphDrawing } from '../../../../src/features/ownership/evidence/ownership-evidence-input.ts';
import { renderOwnershipEvidencePdf } from '../../../../src/features/ownership/evidence/render-ownership-evidence.ts';
import { pdfPages, skipWithoutPdftotext } from '../../../evidence/pdf-text.ts';
import { createTenant, type TestTenant } from '../../../helpers/credentials.ts';
import { loadSdn } from '../../../helpers/sdn-loading.ts';
import { buildTestApp, type TestApp } from '../../../helpers/test-app.ts';
import { pageImages, skipWithoutPdftoppm } from './page-images.ts';
import { ORGANIZATION, storedCheck, TWO_OWNERS_THROUGH_CYPRUS, UNKNOWN_STAKES_WHILE_SUSPENDED } from './stored-check.ts';

const fixture = (path: string) => fs.readFileSync(new URL(`../../../fixtures/${path}`, import.meta.url), 'latin1');
/** Rendered with `draw` as the graph's drawing, of the size given (a small one by default: it reads whole). */
const render = (check: EvidenceOwnershipCheck, draw?: GraphDrawing['draw'], size = { width: 400, height: 300 }) =>
  renderOwnershipEvidencePdf({ organization: ORGANIZATION, check }, draw ? { graph: { ...size, draw } } : {});
const documentId = (pdf: Buffer) => /\/ID \[<([0-9a-f]+)> <([0-9a-f]+)>\]/.exec(pdf.toString('latin1'))?.[1];

/** Each phrase found in `text`, each after the one before it. */
function assertInOrder(text: string, phrases: string[]) {
  let from = 0;
  for (const phrase of phrases) {
    const at = text.indexOf(phrase, from);
    assert.ok(at >= 0, `"${phrase}" is missing${text.includes(phrase) ? ' or out of order' : ''}`);
    from = at;
  }
}

describe('ownership evidence PDF', () => {
  let harness: TestApp;
  let tenant: TestTenant;
  let blocked: EvidenceOwnershipCheck;
  let indeterminate: EvidenceOwnershipCheck;

  before(async () => {
    harness = await buildTestApp();
    tenant = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
    await loadSdn(harness, fixture('ofac/sdn.csv'), fixture('ofac/alt.csv'));
    blocked = await storedCheck(harness, tenant, TWO_OWNERS_THROUGH_CYPRUS);
    indeterminate = await storedCheck(harness, tenant, UNKNOWN_STAKES_WHILE_SUSPENDED, { supersedes: 'own_01kaq3m2c5v8x0f3r6t9w2y5b8' });
  });
  after(() => harness.close());

  test('the structure is what it says: both owners found by screening, the target blocked through the Cyprus holding', () => {
    const { answer } = blocked;
    assert.deepEqual([blocked.status, answer.ofac.blocked, answer.bis.restricted, answer.bis.affiliates_rule_status], ['blocked', true, false, 'in_force']);
    assert.deepEqual(
      answer.entities.filter((e) => e.designations.some((d) => d.source === 'screening')).map((e) => e.id),
      ['O1', 'O2'],
    );
    assert.equal(indeterminate.status, 'indeterminate');
  });

  test('is deterministic: the same record gives the same bytes; another record hash another file and document ID', async () => {
    const first = await render(blocked);
    assert.equal(first.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.ok(first.equals(await render(blocked)), 'two renderings of one record differ');
    const other = await render({ ...blocked, record_sha256: 'e'.repeat(64) });
    assert.ok(!other.equals(first));
    assert.notEqual(documentId(other), documentId(first), 'the document ID follows the record hash');
    assert.doesNotMatch(first.toString('latin1'), /Helvetica/, 'no font is named without being embedded');
  });

  test('refuses a check time that is not a date, rather than stamping the current time', async () => {
    await assert.rejects(render({ ...blocked, checked_at: 'yesterday' }), /check\.checked_at is not a date/);
  });

  describe('its text, as pdftotext reads it', { skip: skipWithoutPdftotext() }, () => {
    test('two listed owners through an intermediate: the question, the rules with their dated status, the arithmetic, the paths, the parties, the list versions and the hash', async () => {
      const pages = pdfPages(await render(blocked));
      const text = pages.join(' ');
      const { answer } = blocked;
      const matchOf = (id: string) => answer.entities.find((e) => e.id === id)?.screening_matches?.[0];
      assertInOrder(text, [
        'Ownership determination evidence',
        `Organization ${ORGANIZATION.name}`,
        `Determination id ${blocked.id}`,
        // the question
        'Target ООО Северный Ветер (T)',
        'As of 2026-11-22',
        `Asked by api_key ${tenant.keyId}`,
        `Checked at (UTC) ${blocked.checked_at}`,
        'Parties 5 parties: 2 natural persons, 3 entities',
        'Stakes 4 relationships given',
        'Names screened yes, at the match threshold 0.800: 5 parties without designations screened',
        // the determination, each rule with its dated status
        "Status BLOCKED under OFAC's 50 Percent Rule",
        'Blocked yes Determinate yes Basis ownership',
        'Status on 2026-11-22 in force: the aggregation standard applies from 2014-08-13',
        'Restricted no',
        'Foreign entity yes',
        'Red Flag 29 no',
        'Status on 2026-11-22 in force, from 2026-11-10 to further notice',
        '90 FR 50857',
        '— 2025-09-28 before the rule not in effect',
        '2025-09-29 2025-11-09 effective in force',
        '90 FR 47201',
        '2025-11-10 2026-11-09 suspended suspended (stayed)',
        "2026-11-10 further notice reinstated in force (scheduled) this check's date",
        // OFAC's aggregate, its arithmetic and its paths
        "Aggregate percentages: OFAC's 50 Percent Rule",
        'Helios Maritime Holdings Ltd (CY) 100% through ownership yes',
        'ООО Северный Ветер (T): 100% held by Helios Maritime Holdings Ltd (CY) = 100% ≥ 50%',
        'Helios Maritime Holdings Ltd (CY): 30% held by Example Trading Co., Ltd. (O1) + 25% held by Karim Yusuf Abu-Ali (O2) = 55% ≥ 50%',
        'Path 1 of 2: adds 100% to the target; certain',
        answer.ofac.paths[0]?.text as string,
        'Example Trading Co., Ltd. (O1) listed: OFAC_SDN 30%',
        'Path 2 of 2',
        answer.ofac.paths[1]?.text as string,
        // BIS counts only the SDGT designee, whose 25% covers nothing
        'Aggregate percentages: BIS Affiliates Rule',
        'No covered party holds a stake in the target.',
        'ООО Северный Ветер (T): 0% < 50%: no covered owner holds a stake',
        'No deciding path',
        'Ownership graph',
        'drawn in the Gatehouse console',
        // the parties, with the list entries screening matched
        'Example Trading Co., Ltd. (O1) entity, IR OFAC_SDN [IRAN], found by',
        `OFAC_SDN entry 10002 "EXAMPLE TRADING CO., LTD."`,
        `score ${formatScore(matchOf('O1')?.score as number)}, counted`,
        // a cell's second line comes after the row's other cells
        'Karim Yusuf Abu-Ali (O2) person, LB OFAC_SDN [SDGT, IRGC], found',
        'blocked restricted',
        'screening (entry 10001)',
        `OFAC_SDN entry 10001 "ABU-'ALI, Karim Yusuf"`,
        'Helios Maritime Holdings Ltd (CY) entity, CY none blocked no',
        'Warnings None',
        // the list versions, with their hashes, and the record's own hash
        'List versions used',
        ...answer.screening.list_versions.flatMap((v) => [v.list, v.version_id, `SHA-256 ${v.source_sha256}`]),
        'Every list consulted was within its maximum age',
        `Record SHA-256 ${blocked.record_sha256}`,
        'Supersedes nothing',
      ]);
      assert.ok(pages.length >= 2);
      pages.forEach((page, i) => {
        assert.ok(page.startsWith(`${ORGANIZATION.name} · Ownership determination ${blocked.id}`), `page ${i + 1} header`);
        assert.ok(page.endsWith(`Page ${i + 1} of ${pages.length}`), `page ${i + 1} number`);
      });
    });

    test('stakes of unknown size: the lower and the upper bound, the rule suspended on the date, names not screened, the determination it re-evaluated', async () => {
      const text = pdfPages(await render(indeterminate)).join(' ');
      assertInOrder(text, [
        'شركة النور للتجارة',
        'Names screened no: only the designations given in the request were used',
        'Re-evaluates determination own_01kaq3m2c5v8x0f3r6t9w2y5b8',
        'Status INDETERMINATE',
        'Blocked no Determinate no: stakes of unknown size',
        'Status on 2026-01-10 suspended (stayed), from 2025-11-10 to 2026-11-09',
        "2025-11-10 2026-11-09 suspended suspended (stayed) this check's date",
        'Epsilon Capital (E) ?% listed no: the stake is of unknown size',
        ': 30% held by Alpha Resources (A) = 30% < 50% (lower bound',
        'Upper bound, counting what is not known at its largest: 30% held by Alpha Resources (A) + 45% at most, for 1 stake of unknown size = 75% ≥ 50%',
        'Path 2 of 2: adds ?% to the target; not certain',
        'The Affiliates Rule was suspended on 2026-01-10: nothing is aggregated',
        'unknown_percent',
        'control_not_ownership',
        'Delta Holding (C)',
        'No names were screened, so no list version was consulted',
        'Supersedes own_01kaq3m2c5v8x0f3r6t9w2y5b8: this determination re-evaluated that earlier one',
      ]);
    });
  });

  test('a natural person as the target: listed, and nothing aggregated under either rule', { skip: skipWithoutPdftotext() }, async () => {
    const person = await storedCheck(harness, tenant, {
      target: 'P',
      as_of: '2026-11-22',
      screen_names: false,
      entities: [{ id: 'P', name: 'Ivan Petrov', type: 'person', designations: [{ list: 'OFAC_SDN', programs: ['RUSSIA-EO14024'] }] }],
      ownerships: [],
    });
    const text = pdfPages(await render(person)).join(' ');
    assertInOrder(text, [
      'Target Ivan Petrov (P)',
      'Basis listed: on a list this rule counts',
      "Aggregate percentages: OFAC's 50 Percent Rule The target is a natural person",
      'Aggregate percentages: BIS Affiliates Rule The target is a natural person',
      'Ivan Petrov (P) person OFAC_SDN [RUSSIA-EO14024], blocked restricted given',
    ]);
  });

  describe('its pages, as pdftoppm draws them', { skip: skipWithoutPdftoppm() }, () => {
    test('the graph is drawn in a box of the text width on one page, with nothing written over it', async () => {
      const calls: { page: number; box: GraphBox }[] = [];
      const pdf = await render(blocked, (doc, box) => {
        const { start, count } = doc.bufferedPageRange();
        calls.push({ page: start + count - 1, box });
        doc.rect(box.x, box.y, box.width, box.height).fill('#808080');
      });
      assert.equal(calls.length, 1);
      const [{ page, box }] = calls as [{ page: number; box: GraphBox }];
      const a4 = { width: 595.28, height: 841.89 };
      assert.ok(Math.abs(box.width - (a4.width - 100)) < 0.01, `the text width, not ${box.width}`);
      assert.ok(box.height >= 300 && box.y >= 56 && box.y + box.height <= a4.height - 56, JSON.stringify(box));

      const dpi = 36;
      const images = pageImages(pdf, dpi);
      assert.equal(images.length, pdfPages(pdf).length);
      const image = images[page] as (typeof images)[number];
      const px = (points: number) => Math.round((points * dpi) / 72);
      const [left, top, right, bottom] = [px(box.x) + 1, px(box.y) + 1, px(box.x + box.width) - 2, px(box.y + box.height) - 2];
      for (let y = top; y <= bottom; y++) {
        for (let x = left; x <= right; x++) {
          const gray = image.gray[y * image.width + x] as number;
          assert.ok(Math.abs(gray - 128) <= 3, `pixel (${x}, ${y}) of page ${page + 1} is ${gray}: something is drawn over the graph`);
        }
      }
      // Text resumes below the box: the page is not empty beneath it.
      const below = image.gray.subarray((bottom + 4) * image.width, px(a4.height - 56) * image.width);
      assert.ok(
        below.some((gray) => gray < 100),
        'the text goes on below the graph',
      );
      assert.ok(!pdfPages(pdf).join(' ').includes('drawn in the Gatehouse console'));
    });

    test('a graph too wide to read whole is drawn again enlarged, in labelled parts that cover all of it', async () => {
      const drawing = { width: 4_000, height: 900 };
      const calls: { page: number; region: GraphBox | undefined; box: GraphBox }[] = [];
      const pdf = await render(
        blocked,
        (doc, box, region) => {
          const { start, count } = doc.bufferedPageRange();
          calls.push({ page: start + count - 1, region, box });
        },
        drawing,
      );
      const [whole, ...parts] = calls;
      assert.equal(whole?.region, undefined, 'the whole graph first');
      assert.ok(parts.length >= 2, `${parts.length} parts`);
      const pages = pdfPages(pdf);
      assert.ok(pages[whole?.page as number]?.includes(`in ${parts.length} parts`), 'the document says it follows in parts');
      parts.forEach(({ page, region, box }, i) => {
        assert.ok(pages[page]?.includes(`Ownership graph, part ${i + 1} of ${parts.length}`), `part ${i + 1} labelled on its page`);
        assert.ok(i === 0 || page >= (parts[i - 1]?.page as number), 'in order');
        const scale = Math.min(box.width / (region as GraphBox).width, box.height / (region as GraphBox).height);
        assert.ok(scale >= 0.5 - 1e-9, `part ${i + 1} drawn at ${scale}`);
      });
      // Every point of the drawing is in some part.
      for (let x = 0; x <= drawing.width; x += 50)
        for (let y = 0; y <= drawing.height; y += 50)
          assert.ok(
            parts.some(({ region: r }) => r && x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height),
            `(${x}, ${y}) is in no part`,
          );
    });
  });
});
