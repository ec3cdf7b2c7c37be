/**
 * A match on one of the organization's own watchlists, as a case shows it: the watchlist (a link
 * to its page), the entry's severity as a labelled badge, and the reason the entry was listed for,
 * which is what the person deciding needs first. A match on a public list carries none of this.
 */
import type { WatchlistOfMatch } from '../../screenings/screening-record.ts';
import { watchlistListCode } from '../../watchlists/model.ts';
import { type Html, html } from '../html.ts';
import { severityBadge, watchlistPath } from '../watchlists/watchlist-words.ts';

export function watchlistNote(watchlist: WatchlistOfMatch): Html {
  return html`<dl class="watchlist-match">
<dt>Watchlist</dt><dd><a href="${watchlistPath(watchlist)}">${watchlist.name}</a> <span class="list-code">${watchlistListCode(watchlist.slug)}</span></dd>
<dt>Severity</dt><dd>${severityBadge(watchlist.severity)}</dd>
<dt>Reason</dt><dd class="prose">${watchlist.reason}</dd>
</dl>`;
}
