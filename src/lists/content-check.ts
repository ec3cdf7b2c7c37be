/**
 * A downloaded file is looked at before it is parsed: publishers and the networks between them
 * answer 200 with things that are not the list (a site's home page where a file used to be, a
 * firewall's challenge page, an empty body, a file cut short). Each is refused with what was
 * wrong, so the active version stays and the operator reads why. The checks rest on what every
 * file of a kind must have: an XML file closes its root element, a zip ends with its central
 * directory, a JSON document closes, an OFAC legacy file starts with an entry number and ends
 * with the end-of-file byte its specification prescribes (dat_spec, SOURCES.md §1).
 */
import fs from 'node:fs/promises';
import { detectFormat, type ListFormat } from '../screening/lists/list-format.ts';

export class ContentError extends Error {
  override name = 'ContentError';
}

const HEAD_BYTES = 8_192;
// A zip's end-of-central-directory record sits within its last 64 KiB + 22 bytes.
const TAIL_BYTES = 65_558;

export async function checkListFile(file: { path: string; fileName: string; contentType?: string | undefined }): Promise<void> {
  const { head, tail, size } = await readEnds(file.path);
  if (size === 0) throw new ContentError('the body is empty');
  const text = new TextDecoder('utf-8', { fatal: false })
    .decode(head)
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (isHtml(text, file.contentType)) {
    const title = /<title[^>]*>([^<]{0,120})/i.exec(text)?.[1]?.trim();
    throw new ContentError(`an HTML page${title ? ` ("${title}")` : ''} came in place of ${file.fileName}`);
  }
  const format = detectFormat(file.fileName, head);
  if (!format) throw new ContentError(`${file.fileName} is not a list file in a format Gatehouse reads (it starts "${printable(text)}")`);
  const ending = missingEnding(format, text, tail);
  if (ending) throw new ContentError(`${file.fileName} looks truncated: ${ending}`);
}

function isHtml(text: string, contentType: string | undefined): boolean {
  if (contentType && /^text\/html\b/i.test(contentType)) return true;
  return /^(<!doctype html|<html[\s>])/i.test(text) || /^<\?xml[^>]*>\s*<!doctype html/i.test(text);
}

/** What the end of the file lacks for its kind, or undefined when it ends as such a file must. */
function missingEnding(format: ListFormat, text: string, tail: Buffer): string | undefined {
  if (text.startsWith('PK')) {
    return tail.includes(Buffer.from([0x50, 0x4b, 0x05, 0x06])) ? undefined : 'the zip has no end-of-central-directory record';
  }
  if (text.startsWith('<')) {
    const root = /^(?:<\?[\s\S]*?\?>\s*|<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<([\w.:-]+)/.exec(text)?.[1];
    if (root && !tail.toString('utf8').includes(`</${root}>`)) return `its root element <${root}> is never closed`;
    return undefined;
  }
  if (format === 'ofac-legacy') {
    if (/^[\s\x1a]*$/.test(text)) return undefined; // a side file with nothing to add (no comments today)
    if (!/^\d+,/.test(text)) return "it does not start with an entry number, as the rows of OFAC's legacy files do";
    return tail.at(-1) === 0x1a ? undefined : "it does not end with the end-of-file byte (0x1A) OFAC's legacy files end with";
  }
  if (format === 'csl-json') return /[}\]]\s*$/.test(tail.toString('utf8')) ? undefined : 'the JSON document is not closed';
  return undefined;
}

function printable(text: string): string {
  const start = text.slice(0, 60).replace(/[^\x20-\x7e]/g, '.');
  return text.length > 60 ? `${start}…` : start;
}

async function readEnds(filePath: string): Promise<{ head: Buffer; tail: Buffer; size: number }> {
  const handle = await fs.open(filePath, 'r');
  try {
    const { size } = await handle.stat();
    const head = Buffer.alloc(Math.min(HEAD_BYTES, size));
    await handle.read(head, 0, head.length, 0);
    const tail = Buffer.alloc(Math.min(TAIL_BYTES, size));
    await handle.read(tail, 0, tail.length, size - tail.length);
    return { head, tail, size };
  } finally {
    await handle.close();
  }
}
