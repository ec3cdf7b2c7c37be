/**
 * How the console writes times, states and people: the same everywhere, and never by colour
 * alone (a badge always says its word).
 */
import { type Html, html } from './html.ts';

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/** `2026-11-23 14:05 UTC`, machine-readable in `datetime`. */
export function when(value: Date | string | null | undefined): Html {
  if (value === null || value === undefined) return html`—`;
  const date = toDate(value);
  return html`<time datetime="${date.toISOString()}">${date.toISOString().slice(0, 16).replace('T', ' ')} UTC</time>`;
}

/** "in 3 h 20 min" or "2 d 4 h ago", from `now`. */
export function fromNow(value: Date | string, now: Date): string {
  const ms = toDate(value).getTime() - now.getTime();
  const minutes = Math.round(Math.abs(ms) / 60_000);
  const [d, h, m] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
  const span = d > 0 ? `${d} d ${h} h` : h > 0 ? `${h} h ${m} min` : `${m} min`;
  return ms >= 0 ? `in ${span}` : `${span} ago`;
}

/** A state as a labelled badge; `tone` picks its colour, the word carries the meaning. */
export const badge = (text: string, tone: string = text.toLowerCase()) => html`<span class="badge badge-${tone.replace(/[^a-z0-9_-]/gi, '')}">${text}</span>`;

/** An actor as the audit trail and case history write it (`user:fso@example.com`, `api_key:key_…`), in words. */
export function actorLabel(actor: string): string {
  const [kind, ...rest] = actor.split(':');
  const id = rest.join(':');
  if (kind === 'user') return id;
  if (kind === 'api_key') return `API key ${id}`;
  if (kind === 'system') return `system (${id})`;
  return actor;
}

export const score = (value: number) => value.toFixed(2);

/** Who or what a screening was about, as one line. */
export function subjectLine(input: { subject?: unknown; company?: unknown } | null | undefined): string {
  if (!input) return '(unknown subject)';
  const subject = typeof input.subject === 'string' ? input.subject : undefined;
  const company = typeof input.company === 'string' ? input.company : undefined;
  return subject && company ? `${subject} (${company})` : (subject ?? company ?? '(unnamed)');
}
