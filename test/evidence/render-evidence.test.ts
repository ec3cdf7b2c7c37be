import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { renderEvidencePdf } from '../../src/evidence/render-evidence.ts';
import { ARABIC_NAME, CYRILLIC_NAME, evidenceFixture } from './evidence-fixture.ts';
import { pdfPages, skipWithoutPdftotext } from './pdf-text.ts';

/** The trailer's /ID and the info dictionary's creation date, read from the file itself. */
const documentId = (pdf: Buffer) => /\/ID \[<([0-9a-f]+)> <([0-9a-f]+)>\]/.exec(pdf.toString('latin1'))?.[1];
function creationDate(pdf: Buffer): string | undefined {
  const text = pdf.toString('latin1');
  const ref = /\/CreationDate (\d+) 0 R/.exec(text)?.[1];
  return new RegExp(`\\n${ref} 0 obj\\n\\(D:(\\d{14})Z\\)`).exec(text)?.[1];
}

describe('evidence PDF', () => {
  test('is a PDF whose info dates are the screening time, not the rendering time', async () => {
    const pdf = await renderEvidencePdf(evidenceFixture());
    assert.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.equal(creationDate(pdf), '20250314092107');
    assert.match(pdf.toString('latin1'), /\/FontFile2/, 'the font is embedded');
    assert.doesNotMatch(pdf.toString('latin1'), /Helvetica/, 'no font is named without being embedded');
  });

  test('is deterministic: the same record gives the same bytes, another record other bytes and another ID', async () => {
    const first = await renderEvidencePdf(evidenceFixture());
    const second = await renderEvidencePdf(evidenceFixture());
    assert.ok(first.equals(second), 'two renderings of one record differ');

    const changed = evidenceFixture();
    changed.screening.matches[1]!.score = 0.872;
    changed.canonical_sha256 = 'e'.repeat(64);
    const other = await renderEvidencePdf(changed);
    assert.ok(!other.equals(first));
    assert.notEqual(documentId(other), documentId(first), 'the document ID follows the record hash');
    assert.match(String(documentId(first)), /^[0-9a-f]{32}$/);
  });

  test('refuses a screening time that is not a date, rather than stamping the current time', async () => {
    const input = evidenceFixture();
    input.screening.created_at = 'yesterday';
    await assert.rejects(renderEvidencePdf(input), /created_at is not a date/);
  });

  test('names a fallback font that cannot be read', async () => {
    await assert.rejects(
      renderEvidencePdf(evidenceFixture(), { fallbackFont: { path: '/nonexistent/NotoSansCJK.ttc' } }),
      /fallback font \/nonexistent\/NotoSansCJK\.ttc cannot be used/,
    );
  });
});

describe('evidence PDF text, as pdftotext reads it', { skip: skipWithoutPdftotext() }, () => {
  test('holds everything an auditor checks, in order, with each page headed and numbered', async () => {
    const input = evidenceFixture();
    const pages = pdfPages(await renderEvidencePdf(input));
    const text = pages.join(' ');
    const { screening } = input;
    const expected = [
      'Restricted-party screening evidence',
      input.organization.name,
      input.organization.id,
      // what was screened, and when
      screening.created_at,
      'Abdul Rahman Mohammed',
      'Petrov Logistics LLC',
      '1971-04',
      'Abd al-Rahman Muhammad',
      ARABIC_NAME,
      'VIS-2025-00417',
      // by whom
      'api_key key_01JQ4KB0X8N2',
      screening.request_id,
      // outcome and threshold, and a summary of what was cleared that agrees with the section below
      'potential match',
      'Match threshold 0.800',
      'Auto-clear band 0.050',
      'Rules version 3',
      'Auto-cleared matches 2, listed below: 1 within the auto-clear band; 1 by clearing rule "other person by date and nationality"',
      'Stale lists UN_SC: past the maximum age when this screening ran (see the list versions below)',
      // list versions, and the one past its maximum age
      ...screening.list_versions.flatMap((v) => [v.version_id, v.entity_count.toLocaleString('en-US'), `SHA-256 ${v.sha256}`]),
      'UN_SC was past its maximum age (last confirmed current 2025-03-10T22:04:51.000Z, 83.3 hours before; 72 hours allowed) when this screening ran. ' +
        'The screening ran against its version lv_un_sc_20250310 as it was.',
      // matches, with their explanations
      'Match 1 of 2',
      'QDi.990',
      'the name in its original script',
      'born 1971 as listed',
      'corroborates +0.020',
      'Match 2 of 2',
      '58214',
      CYRILLIC_NAME,
      'RUSSIA-EO14024',
      'Petrov≈Петров across scripts',
      'Logistics Логистика across scripts 0.86',
      'contradicts −0.020 listed in RU, subject in IR',
      // auto-cleared matches, each with what cleared it, the rules version, the reason, the entry's hash and its qualifiers
      'Auto-cleared matches',
      'Auto-cleared 1 of 2: MOHAMMED, Abdul Rahman',
      'Cleared by a clearing rule "other person by date and nationality"',
      'Rules version 3',
      'Reason cleared by the rule "other person by date and nationality" (rules v3): date of birth contradicts',
      'Score 0.800 (threshold 0.800)',
      'Entry SHA-256 0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d',
      'date of birth contradicts −0.250 born 1971-04; the entry gives 1958-06-01: more than 2 years apart',
      'threshold hold holds +0.150 held at the alert threshold 0.80',
      'Auto-cleared 2 of 2: PETROVA LOGISTIC GROUP',
      'Cleared by the auto-clear band',
      'scored 0.772, within the auto-clear band 0.05 below the threshold 0.80 (rules v3)',
      // country flags
      'Country flags',
      ...screening.country_flags.flatMap((flag) => [
        `${[flag.country, flag.region].filter(Boolean).join(' / ')} ${flag.regime} ${flag.severity}`,
        `In force from ${flag.effective_from}`,
      ]),
      // adjudication
      input.adjudication!.case_id,
      'user j.alvarez@northwind.example',
      'false_positive',
      'the listed person was born in 1971',
      // integrity
      input.audit_chain_hash,
      'gatehouse audit verify',
      input.canonical_sha256,
      `GET /api/v1/screenings/${screening.id}`,
    ];
    let from = 0;
    for (const phrase of expected) {
      const at = text.indexOf(phrase, from);
      assert.ok(at >= 0, `"${phrase}" is missing${text.includes(phrase) ? ' or out of order' : ''}`);
      from = at;
    }
    assert.ok(pages.length >= 2, 'the fixture spans pages, so headers and numbers are exercised');
    pages.forEach((page, i) => {
      assert.ok(page.startsWith(`${input.organization.name} · Screening ${screening.id}`), `page ${i + 1} header`);
      assert.ok(page.includes(`Page ${i + 1} of ${pages.length}`), `page ${i + 1} number`);
    });
  });

  test('Arabic comes out as its letters in reading order, Cyrillic as its letters', async () => {
    const text = pdfPages(await renderEvidencePdf(evidenceFixture())).join(' ');
    // pdftotext puts right-to-left text back in logical order: a phrase drawn with its words in
    // the wrong order (pdfkit's own behaviour) would come out as "محمد الرحمن عبد".
    assert.ok(text.includes(`Aliases Abd al-Rahman Muhammad; ${ARABIC_NAME} Identifiers not given`), text);
    // Around a bracket pdftotext's reordering moves the bracket, not the words.
    assert.match(text, new RegExp(`Matched name \\(? ?${ARABIC_NAME} ?\\(?the name in its original script\\)`));
    assert.ok(text.includes(`Matched name ${CYRILLIC_NAME} (a strong a.k.a.)`));
  });

  test('says so when there is no adjudication case, and when nothing matched', async () => {
    const input = evidenceFixture();
    delete input.adjudication;
    input.screening.matches = [];
    input.screening.auto_cleared_matches = [];
    input.screening.outcome = 'clear';
    const text = pdfPages(await renderEvidencePdf(input)).join(' ');
    assert.ok(text.includes('No adjudication case.'));
    assert.ok(text.includes('No list entry scored at or above the threshold of 0.800.'));
    assert.ok(text.includes('Auto-cleared matches none'));
    assert.ok(text.includes('No match was cleared without a person.'));
  });

  test("the first page states the case's current disposition, when and by whom it was made, or that none is made yet", async () => {
    const decided = evidenceFixture();
    decided.adjudication = {
      ...decided.adjudication!,
      status: 'DENIED',
      status_since: { at: '2025-03-14T11:37:19.904Z', actor: 'user:j.alvarez@northwind.example', disposition: 'DENIED' },
    };
    const first = pdfPages(await renderEvidencePdf(decided))[0] ?? '';
    assert.ok(
      first.includes(
        'Outcome potential match Disposition DENIED, decided 2025-03-14T11:37:19.904Z by user j.alvarez@northwind.example (case case_01JQ4MA5G7T3)',
      ),
      first,
    );
    assert.ok(!first.includes('to be adjudicated'), 'a decided case is not said to await adjudication');

    const open = evidenceFixture();
    open.adjudication = { ...open.adjudication!, status: 'OPEN', status_since: { at: '2025-03-14T09:21:07.412Z', actor: 'system' } };
    const firstOfOpen = pdfPages(await renderEvidencePdf(open))[0] ?? '';
    assert.ok(
      firstOfOpen.includes('Disposition none yet: the case is OPEN since 2025-03-14T09:21:07.412Z, to be adjudicated (case case_01JQ4MA5G7T3)'),
      firstOfOpen,
    );

    const noCase = evidenceFixture();
    delete noCase.adjudication;
    assert.ok(pdfPages(await renderEvidencePdf(noCase))[0]?.includes('Disposition none: no case was opened'));
  });

  test('a Chinese, Japanese or Korean name does not crash and reads as a transliteration', async () => {
    const input = evidenceFixture();
    input.screening.input.subject = '金正恩';
    input.screening.input.aliases = ['김정은', 'キム・ジョンウン'];
    input.screening.matches[0]!.matched_name = '金正恩';
    const text = pdfPages(await renderEvidencePdf(input)).join(' ');
    assert.ok(text.includes('Subject name ‹JinZhengEn›'), text.slice(0, 600));
    assert.ok(text.includes('‹GimJeongEun›'));
    assert.ok(text.includes('Matched name ‹JinZhengEn›'));
  });

  const systemMathFont = '/usr/share/fonts/truetype/dejavu/DejaVuMathTeXGyre.ttf';
  test('a fallback font draws what the body font lacks', {
    skip: !fs.existsSync(systemMathFont) && `skipped: no ${systemMathFont} to stand in for a CJK font`,
  }, async () => {
    // DejaVu Sans has no mathematical script capitals; DejaVu Math TeX Gyre has them, as a CJK font has Han.
    const input = evidenceFixture();
    input.screening.input.company = '𝒜𝓁𝓅𝒽𝒶 Holdings';
    const without = pdfPages(await renderEvidencePdf(input)).join(' ');
    assert.ok(without.includes('Company ‹Alpha› Holdings'));
    const withFallback = pdfPages(await renderEvidencePdf(input, { fallbackFont: { path: systemMathFont } })).join(' ');
    assert.ok(withFallback.includes('Company 𝒜𝓁𝓅𝒽𝒶 Holdings'), withFallback.slice(0, 800));
  });
});
