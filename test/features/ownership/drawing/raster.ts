/**
 * A PDF page as pixels, as poppler's pdftoppm renders it (Debian's poppler-utils), read from its
 * plain PPM output so that no image library is needed. Outside CI a test that needs it is skipped
 * with a message when it is not installed; in CI (CI=true) its absence fails the run.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export function skipWithoutPdftoppm(): string | false {
  if (!spawnSync('pdftoppm', ['-v']).error) return false;
  if (process.env.CI === 'true') throw new Error('CI needs pdftoppm to look at the drawn PDF: apt-get install poppler-utils');
  return 'skipped: pdftoppm is not installed (apt-get install poppler-utils)';
}

export type Raster = { width: number; height: number; rgb: Buffer };

/** The first page at `dpi`, as RGB bytes. */
export function rasterize(pdf: Buffer, dpi: number): Raster {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-drawing-'));
  try {
    const file = path.join(dir, 'drawing.pdf');
    fs.writeFileSync(file, pdf);
    const run = spawnSync('pdftoppm', ['-r', String(dpi), '-f', '1', '-l', '1', file], { maxBuffer: 256 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`pdftoppm failed: ${run.stderr}`);
    return readPpm(run.stdout);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Binary PPM (P6): "P6", width, height and the largest value, separated by white space, then the pixels. */
function readPpm(data: Buffer): Raster {
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(data.subarray(0, 64).toString('latin1'));
  if (!header || header[3] !== '255') throw new Error('pdftoppm did not write an 8-bit PPM');
  const [width, height] = [Number(header[1]), Number(header[2])];
  return { width, height, rgb: data.subarray(header[0].length, header[0].length + width * height * 3) };
}

/** The share of pixels for which `test` holds. */
export function share(raster: Raster, test: (r: number, g: number, b: number) => boolean): number {
  let count = 0;
  for (let i = 0; i < raster.rgb.length; i += 3) if (test(raster.rgb[i] as number, raster.rgb[i + 1] as number, raster.rgb[i + 2] as number)) count++;
  return count / (raster.width * raster.height);
}
