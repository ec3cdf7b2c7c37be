/**
 * Audit events as CSV (RFC 4180), one event a line. A cell that a spreadsheet would run as a
 * formula is prefixed with an apostrophe (src/csv-text.ts): an audit export must not become a way
 * to run code on the auditor's machine.
 */
import { csvCell } from '../../csv-text.ts';
import type { ExportLine } from './export-line.ts';

const COLUMNS: [string, (line: ExportLine) => unknown][] = [
  ['seq', (l) => l.seq],
  ['occurred_at', (l) => l.occurred_at],
  ['actor_type', (l) => l.actor.type],
  ['actor_id', (l) => l.actor.id],
  ['actor_role', (l) => l.actor.role],
  ['action', (l) => l.action],
  ['target_type', (l) => l.target.type],
  ['target_id', (l) => l.target.id],
  ['request_id', (l) => l.request_id],
  ['source_ip', (l) => l.source_ip],
  ['outcome', (l) => l.outcome],
  ['details', (l) => JSON.stringify(l.details)],
  ['prev_hash', (l) => l.prev_hash],
  ['hash', (l) => l.hash],
  ['cursor', (l) => l.cursor],
];

export const csvHeader = () => `${COLUMNS.map(([name]) => name).join(',')}\r\n`;

export const csvLine = (line: ExportLine) => `${COLUMNS.map(([, value]) => cell(value(line))).join(',')}\r\n`;

const cell = (value: unknown): string => (value === null || value === undefined ? '' : csvCell(String(value)));
