/**
 * One watchlist entry as its page shows it: everything it holds, where it stands (active,
 * expired, removed) and who added and last changed it; then, for people who keep entries and an
 * entry not removed, the forms that change it, set or clear its expiry, and remove it.
 */
import type { AppError } from '../../../http/errors.ts';
import { entryStatusAt, type Watchlist, type WatchlistEntry } from '../../watchlists/model.ts';
import { actorLabel, when } from '../format.ts';
import { type Html, html } from '../html.ts';
import { ENTRY_LABELS, type EntryFormValues, entryForm } from './entry-form.ts';
import { problemsBox, severityBadge, statusBadge, trail, watchlistPath } from './watchlist-words.ts';

export type EntryView = {
  watchlist: Watchlist;
  entry: WatchlistEntry;
  now: Date;
  /** The forms' CSRF field, when this person may keep entries; undefined: the page only shows. */
  csrf: Html | undefined;
  /** What was typed into the edit form, and why it was refused, when it is shown again. */
  edit?: { values: EntryFormValues; refusal: AppError };
};

export const entryPath = (watchlist: Pick<Watchlist, 'id'>, entry: Pick<WatchlistEntry, 'id'>) => `${watchlistPath(watchlist)}/entries/${entry.id}`;

export function entryBody(view: EntryView, formValues: EntryFormValues): Html {
  const { watchlist, entry, csrf } = view;
  let changes: Html;
  if (entry.removedAt)
    changes = html`<p>This entry was removed ${when(entry.removedAt)}: it matches nothing, and stays here for the versions that held it. To list it again, add it as a new entry.</p>`;
  else if (!csrf) changes = html`<p class="help">You have the viewer role: you can look at entries but not change them.</p>`;
  else changes = html`${editSection(view, formValues, csrf)}${expirySection(view, csrf)}${removeSection(view, csrf)}`;
  return html`${trail(watchlist, entry.names[0]?.full ?? entry.id)}
${details(entry, view.now)}
${changes}`;
}

function details(entry: WatchlistEntry, now: Date): Html {
  const rows: [string, string | Html][] = [
    [
      'Other names',
      entry.names
        .slice(1)
        .map((n) => n.full)
        .join('; '),
    ],
    ['Type', entry.type],
    ['Dates of birth', entry.datesOfBirth.join(', ')],
    ['Countries', entry.countries.join(', ')],
    ['Identifiers', entry.identifiers.map((i) => `${i.type} ${i.value}${i.country ? ` (${i.country})` : ''}`).join('; ')],
    ['Your reference', entry.externalId ?? ''],
  ];
  return html`<dl class="entry-details">
<dt>Name</dt><dd>${entry.names[0]?.full}</dd>
${rows.filter(([, value]) => value !== '').map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}
<dt>Reason</dt><dd class="prose">${entry.reason}</dd>
<dt>Severity</dt><dd>${severityBadge(entry.severity)}</dd>
<dt>Status</dt><dd>${statusBadge(entryStatusAt(entry, now))}</dd>
<dt>Expires</dt><dd>${entry.expiresAt ? when(entry.expiresAt) : 'never'}</dd>
<dt>Added</dt><dd>${when(entry.addedAt)} by ${actorLabel(entry.addedBy)}</dd>
<dt>Last changed</dt><dd>${when(entry.updatedAt)} by ${actorLabel(entry.updatedBy)}, in version ${entry.version}</dd>
<dt>Entry id</dt><dd><code>${entry.id}</code></dd>
</dl>`;
}

function editSection(view: EntryView, values: EntryFormValues, csrf: Html): Html {
  return html`<section aria-labelledby="edit-heading">
<h2 id="edit-heading">Change the entry</h2>
${view.edit && problemsBox(view.edit.refusal, ENTRY_LABELS)}
${entryForm({ action: entryPath(view.watchlist, view.entry), values, csrf, submit: 'Save the changes', withExpiry: false })}
</section>`;
}

function expirySection({ watchlist, entry, now }: EntryView, csrf: Html): Html {
  // Expired already, nothing is chosen for the person: sending the form as it comes must not undo or repeat what they did.
  const expired = entry.expiresAt !== null && entry.expiresAt <= now;
  return html`<section aria-labelledby="expiry-heading">
<h2 id="expiry-heading">Expiry</h2>
<p>${entry.expiresAt ? html`It ${expired ? 'expired' : 'expires'} ${when(entry.expiresAt)}.` : 'It has no expiry.'} An expired entry matches nothing and stays listed, as expired.</p>
<form class="stack" method="post" action="${entryPath(watchlist, entry)}/expire">
${csrf}
<fieldset><legend>Expire the entry</legend>
<p><input type="radio" id="expire-now" name="when" value="now" required${expired ? '' : html` checked`}> <label for="expire-now">Now: it stops matching at once</label></p>
<p><input type="radio" id="expire-date" name="when" value="date"> <label for="expire-date">From a date</label>
<label for="expire-on" class="visually-hidden">Expiry date</label> <input type="date" id="expire-on" name="on" aria-describedby="expire-on-help">
<span id="expire-on-help" class="help">from 00:00 UTC that day</span></p>
${entry.expiresAt && html`<p><input type="radio" id="expire-never" name="when" value="never"> <label for="expire-never">Never: clear the expiry, so it matches again</label></p>`}
</fieldset>
<p><button type="submit">Set the expiry</button></p>
</form>
</section>`;
}

function removeSection({ watchlist, entry }: EntryView, csrf: Html): Html {
  const name = entry.names[0]?.full ?? entry.id;
  return html`<section aria-labelledby="remove-heading">
<h2 id="remove-heading">Remove the entry</h2>
<p>A removed entry matches nothing from then on. It stays readable, as removed, for the versions that held it.</p>
<form method="post" action="${entryPath(watchlist, entry)}/remove" data-confirm="Remove ${name} from ${watchlist.name}?">
${csrf}
<p><button type="submit">Remove the entry</button></p>
</form>
</section>`;
}
