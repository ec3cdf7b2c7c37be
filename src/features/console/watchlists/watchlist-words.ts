/**
 * How the console writes a watchlist's parts wherever they appear (its pages, a case's match):
 * severities and statuses as labelled badges, each version's change in words, the trail back to
 * the watchlist, and a refusal with every problem it names.
 */
import type { AppError, FieldError } from '../../../http/errors.ts';
import type { EntryStatus, Severity, VersionChange, Watchlist } from '../../watchlists/model.ts';
import { badge } from '../format.ts';
import { type Html, html } from '../html.ts';

/** Who may do what, as the API's watchlist routes declare it: anyone reads, operators keep entries, admins keep the watchlists. */
export const READ = { tier: 'defense', permission: 'read' } as const;
export const KEEP_ENTRIES = { tier: 'defense', permission: 'operate' } as const;
export const ADMINISTER = { tier: 'defense', permission: 'administer' } as const;

/** The severity as a badge saying its word; its colour only repeats it. */
export const severityBadge = (severity: Severity) => badge(severity, `severity-${severity}`);

const STATUS_TONES: Record<EntryStatus, string> = { active: 'cleared', expired: 'pending', removed: 'closed' };
export const statusBadge = (status: EntryStatus) => badge(status, STATUS_TONES[status]);

export const CHANGE_WORDS: Record<VersionChange, string> = {
  created: 'Watchlist created',
  updated: 'Settings changed',
  deleted: 'Watchlist deleted',
  entries_added: 'Entry added',
  entries_changed: 'Entry changed',
  entries_removed: 'Entry removed',
  entries_upserted: 'Import (add and change)',
  entries_replaced: 'Import (replace all)',
};

export const watchlistPath = (watchlist: Pick<Watchlist, 'id'>) => `/console/watchlists/${watchlist.id}`;

/** Where the page sits: the watchlists, then this one. */
export const trail = (watchlist: Pick<Watchlist, 'id' | 'name'>, here?: string) =>
  html`<nav class="trail" aria-label="You are here"><a href="/console/watchlists">Watchlists</a> › ${here ? html`<a href="${watchlistPath(watchlist)}">${watchlist.name}</a> › ${here}` : watchlist.name}</nav>`;

/** A field's name in the form it came from, for a pointer of the API's body (`/countries/1` → "Countries, item 2"). */
export type FieldLabels = Record<string, string>;

function fieldLabel(labels: FieldLabels, pointer: string): string {
  const [, field = '', index] = /^\/([^/]+)(?:\/(\d+))?/.exec(pointer) ?? [];
  const name = labels[field] ?? (field || 'The form');
  return index === undefined ? name : `${name}, item ${Number(index) + 1}`;
}

/** A refusal at the top of a form: what went wrong, then each problem by the field it is in. */
export function problemsBox(error: AppError, labels: FieldLabels): Html {
  const errors = (error.extras.errors ?? []) as FieldError[];
  // A refusal of the form's fields names them below, by their labels rather than the API's pointers.
  const lead =
    error.code === 'validation_failed' && errors.length > 0
      ? `Nothing was changed: ${errors.length === 1 ? 'there is a problem' : `there are ${errors.length} problems`}, each under the field it is in.`
      : error.detail;
  return html`<div class="notice notice-alert" role="alert">
<p>${lead}</p>
${errors.length > 0 && html`<ul>${errors.map((e) => html`<li><strong>${fieldLabel(labels, e.pointer)}</strong>: ${e.detail}</li>`)}</ul>`}
</div>`;
}

/** The refusals a form shows beside itself, rather than on a page of their own. */
export const SHOWN_ON_FORM = new Set(['validation_failed', 'conflict']);
