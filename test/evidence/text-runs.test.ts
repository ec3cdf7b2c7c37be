import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { directionRuns, type GlyphCoverage, textRuns } from '../../src/evidence/text-runs.ts';

const NBSP = '\u00a0';
/** Like DejaVu Sans: no Han, Kana or Hangul. */
const noCjk: GlyphCoverage = { body: (cp) => !(cp >= 0x3040 && cp <= 0x9fff) && !(cp >= 0xac00 && cp <= 0xd7af) };

describe('direction runs', () => {
  test('text without right-to-left letters is one run, untouched', () => {
    assert.deepEqual(directionRuns('Владимир Петров, born 1971'), [{ text: 'Владимир Петров, born 1971', rtl: false }]);
  });

  test('an Arabic phrase is one right-to-left run joined by no-break spaces, so pdfkit cannot reorder its words', () => {
    assert.deepEqual(directionRuns('عبد الرحمن محمد'), [{ text: `عبد${NBSP}الرحمن${NBSP}محمد`, rtl: true }]);
  });

  test('quotes and the spaces around a phrase stay in the left-to-right runs, on the side they were typed', () => {
    assert.deepEqual(directionRuns('"עולם שלום" matched the name'), [
      { text: '"', rtl: false },
      { text: `עולם${NBSP}שלום`, rtl: true },
      { text: '" matched the name', rtl: false },
    ]);
    assert.deepEqual(directionRuns('Aliases: Abd; عبد الرحمن (original)'), [
      { text: 'Aliases: Abd; ', rtl: false },
      { text: `عبد${NBSP}الرحمن`, rtl: true },
      { text: ' (original)', rtl: false },
    ]);
  });

  test('a word mixing Latin and Arabic letters is left to right (it cannot be reordered as a whole)', () => {
    assert.deepEqual(directionRuns('x عبدabc'), [{ text: 'x عبدabc', rtl: false }]);
  });
});

describe('text runs', () => {
  test('characters the body font lacks are transliterated between ‹ › when no fallback font has them', () => {
    assert.deepEqual(textRuns('Kim 金正恩 / 김정은', noCjk), [{ text: 'Kim ‹JinZhengEn› / ‹GimJeongEun›', font: 'body', rtl: false }]);
  });

  test('a fallback font draws what it has, in its own run', () => {
    const withFallback: GlyphCoverage = { ...noCjk, fallback: (cp) => cp >= 0x4e00 && cp <= 0x9fff };
    assert.deepEqual(textRuns('Kim 金正恩 김정은', withFallback), [
      { text: 'Kim ', font: 'body', rtl: false },
      { text: '金正恩', font: 'fallback', rtl: false },
      { text: ' ‹GimJeongEun›', font: 'body', rtl: false },
    ]);
  });

  test('right-to-left phrases stay separate runs between left-to-right text', () => {
    const runs = textRuns('"عبد الله" matched', noCjk);
    assert.deepEqual(
      runs.map((r) => r.rtl),
      [false, true, false],
    );
  });
});
