/**
 * The export as a stream: events are read a batch at a time, each batch in its own short tenant
 * transaction, and written as they come, so a million events need no more memory than a
 * thousand and no transaction stays open while a slow client reads.
 */
import { Readable } from 'node:stream';
import { type EventFilter, headSeq, queryEvents } from '../../audit/audit-store.ts';
import type { Actor, WithTenant } from '../../db/tenant.ts';
import { csvHeader, csvLine } from './csv.ts';
import { exportLine } from './export-line.ts';

export type ExportFormat = 'ndjson' | 'csv';
const BATCH = 1_000;

export function exportStream(withTenant: WithTenant, actor: Actor, filter: EventFilter, afterSeq: number, format: ExportFormat): Readable {
  async function* lines() {
    if (format === 'csv') yield csvHeader();
    // The export ends at the chain's head as it was when the export began.
    const end = await withTenant(actor, headSeq);
    for (let after = afterSeq; after < end; after += BATCH) {
      const links = await withTenant(actor, (trx) => queryEvents(trx, filter, after, Math.min(after + BATCH, end)));
      for (const link of links) {
        const line = exportLine(link);
        yield format === 'csv' ? csvLine(line) : `${JSON.stringify(line)}\n`;
      }
    }
  }
  return Readable.from(lines());
}
