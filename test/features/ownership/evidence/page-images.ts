/**
 * The pages of a PDF as images, as poppler's pdftoppm (Debian's poppler-utils) renders them:
 * grayscale, read back from its PGM files. Outside CI a test that needs it is skipped with a
 * message when it is not installed; in CI (CI=true) its absence fails the run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** `false` when pdftoppm runs; otherwise the skip message (or a thrown error in CI). */
export function skipWithoutPdftoppm(): string | false {
  if (!spawnSync('pdftoppm', ['-v']).error) return false;
  if (process.env.CI === 'true') throw new Error('CI needs pdftoppm to look at the evidence pages: apt-get install poppler-utils');
  return 'skipped: pdftoppm is not installed (apt-get install poppler-utils)';
}

export type PageImage = { width: number; height: number /** One byte a pixel, 0 black to 255 white, row by row. */; gray: Uint8Array };

/** Every page at `dpi`; poppler's complaints about the file (syntax errors) fail the call. */
export function pageImages(pdf: Buffer, dpi: number): PageImage[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-pages-'));
  try {
    const file = path.join(dir, 'evidence.pdf');
    fs.writeFileSync(file, pdf);
    const run = spawnSync('pdftoppm', ['-gray', '-r', String(dpi), file, path.join(dir, 'page')], { encoding: 'utf8' });
    if (run.status !== 0 || run.stderr.trim() !== '') throw new Error(`pdftoppm failed: ${run.stderr}`);
    return fs
      .readdirSync(dir)
      .filter((name) => name.endsWith('.pgm'))
      .sort()
      .map((name) => readPgm(fs.readFileSync(path.join(dir, name))));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A binary PGM (P5, 8 bits): "P5 <width> <height> 255", one white-space byte, then the pixels. */
function readPgm(file: Buffer): PageImage {
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(file.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('pdftoppm wrote an image that is not an 8-bit PGM');
  const [whole, width, height] = header as unknown as [string, string, string];
  return { width: Number(width), height: Number(height), gray: new Uint8Array(file.subarray(whole.length)) };
}
