/**
 * The document every evidence PDF is written into (the screening's and the ownership check's):
 * A4 portrait, one column, a header line atop every page and "page X of Y" at its foot. A pure
 * function of its input: no clock, no randomness, no database.
 *
 * Deterministic bytes: pdfkit stamps the info dictionary with the current time and derives the
 * trailer's document ID from the MD5 of the info entries (PDFSecurity.generateFileID in pdfkit
 * 0.20). Both dates are set to the record's time, and the Subject entry carries the record's
 * SHA-256, so the ID is derived from the record's hash and nothing else varies. Font subsets are
 * named from pdfkit's font counter and fontkit keeps the font's own head dates, so the same input
 * gives the same bytes on every run and machine (with the same pdfkit version).
 */
import PDFDocument from 'pdfkit';
import { registerEvidenceFonts } from './evidence-fonts.ts';
import type { EvidenceRenderOptions } from './evidence-input.ts';
import { EvidenceWriter } from './evidence-writer.ts';

export type EvidenceDocumentInfo = {
  title: string;
  author: string;
  /** Must name the record's hash: the document ID is derived from it. */
  subject: string;
  /** The record's time (ISO 8601), the document's dates; `dateField` names it when it is not a date. */
  date: string;
  dateField: string;
  /** The line atop every page. */
  header: string;
};

export function renderEvidenceDocument(info: EvidenceDocumentInfo, options: EvidenceRenderOptions, write: (w: EvidenceWriter) => void): Promise<Buffer> {
  const recordedAt = new Date(info.date);
  if (Number.isNaN(recordedAt.getTime())) return Promise.reject(new Error(`${info.dateField} is not a date: "${info.date}"`));
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 56, bottom: 56, left: 50, right: 50 },
    bufferPages: true,
    // No default font: pdfkit would load Helvetica, a font the file would name without embedding it.
    // (pdfkit accepts null; its typings do not say so.) Every text call sets a registered font.
    font: null as unknown as string,
    lang: 'en',
    displayTitle: true,
    info: {
      Title: info.title,
      Author: info.author,
      Subject: info.subject,
      Creator: 'Gatehouse',
      Producer: 'Gatehouse (pdfkit)',
      CreationDate: recordedAt,
      ModDate: recordedAt,
    },
  });
  const done = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  try {
    const writer = new EvidenceWriter(doc, registerEvidenceFonts(doc, options));
    write(writer);
    writer.stampPages(info.header);
    doc.end();
  } catch (error) {
    doc.destroy();
    return Promise.reject(error);
  }
  return done;
}
