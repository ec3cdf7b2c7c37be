/**
 * The text of a PDF as a reader's tool extracts it: poppler's pdftotext (Debian's poppler-utils), in
 * layout mode so that a label and its value stay on one line.
 * Outside CI, a test that needs it is skipped with a message when it is not installed; in CI
 * (CI=true) its absence fails the run, so a green CI always means the PDF's text was checked.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `false` when pdftotext runs; otherwise the skip message (or a thrown error in CI). */
export function skipWithoutPdftotext(): string | false {
  if (!spawnSync('pdftotext', ['-v']).error) return false;
  if (process.env.CI === 'true') throw new Error('CI needs pdftotext to check the evidence PDF: apt-get install poppler-utils');
  return 'skipped: pdftotext is not installed (apt-get install poppler-utils)';
}

/**
 * One string per page. Bidi marks that pdftotext puts around right-to-left text are removed and
 * runs of white space become one space, so a test reads the words, not the line breaks.
 */
export function pdfPages(pdf: Buffer): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-evidence-'));
  try {
    const file = path.join(dir, 'evidence.pdf');
    fs.writeFileSync(file, pdf);
    const run = spawnSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`pdftotext failed: ${run.stderr}`);
    const pages = run.stdout.split('\f');
    if (pages.at(-1)?.trim() === '') pages.pop();
    return pages.map((page) =>
      page
        .replace(/[\u200e\u200f\u202a-\u202e]/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
