/**
 * A watchlist's history: its versions, newest first (what each did, who, when, how many entries
 * it added, changed and removed), and one version's page naming the entries it touched, each a
 * link to the entry as it stands now. The versions GET /api/v1/watchlists/{id}/versions answers.
 */
import { Type } from 'typebox';
import type { ReadTrail } from '../../../audit/read-trail.ts';
import { auditContextOf } from '../../../http/audit-context.ts';
import { recordShown } from '../../../http/audited-reads.ts';
import type { Api } from '../../../http/feature.ts';
import { entryStatusAt, type Watchlist, type WatchlistEntry, type WatchlistVersion } from '../../watchlists/model.ts';
import type { WatchlistService } from '../../watchlists/service.ts';
import type { VersionSummary } from '../../watchlists/store.ts';
import { VersionParams, WatchlistParams } from '../../watchlists/watchlist-schemas.ts';
import { actorLabel, when } from '../format.ts';
import { type Html, href, html } from '../html.ts';
import { sendPage } from '../layout.ts';
import { CHANGE_WORDS, READ, severityBadge, statusBadge, trail, watchlistPath } from './watchlist-words.ts';

const PAGE_SIZE = 25;
/** Entries named per kind on a version's page; an import's thousands are counted, not listed. */
const NAMED_PER_KIND = 100;

const HistoryQuery = Type.Object({ before: Type.Optional(Type.Integer({ minimum: 2 })) });
const VersionQuery = Type.Object({ done: Type.Optional(Type.Literal('imported')) });

type Deps = { watchlists: Pick<WatchlistService, 'get' | 'versions' | 'version' | 'entriesWithIds'>; reads: ReadTrail };

export function registerHistoryPages(api: Api, deps: Deps) {
  const { watchlists } = deps;

  api.get('/watchlists/:id/history', { config: READ, schema: { params: WatchlistParams, querystring: HistoryQuery } }, async (request, reply) => {
    const context = auditContextOf(request);
    const { before } = request.query;
    const watchlist = await watchlists.get(context, request.params.id);
    const rows = await watchlists.versions(context, watchlist.id, { limit: PAGE_SIZE + 1, ...(before && { beforeVersion: before }) });
    const page = rows.slice(0, PAGE_SIZE);
    const older = rows.length > PAGE_SIZE ? page.at(-1)?.version : undefined;
    const path = `${watchlistPath(watchlist)}/history`;
    return sendPage(request, reply, {
      title: `History: ${watchlist.name}`,
      section: 'watchlists',
      body: html`${trail(watchlist, 'History')}
<p>Every change to the watchlist or its entries is a version, newest first.</p>
${historyTable(watchlist, page)}
<nav class="pages" aria-label="History pages">
${before && html`<a href="${path}">Newest changes</a>`}
${older && html`<a href="${href(path, { before: older })}" rel="next">Older changes</a>`}
</nav>`,
    });
  });

  api.get(
    '/watchlists/:id/versions/:version',
    {
      config: { ...READ, auditRead: { action: 'watchlist_entry.listed', target: 'watchlist_entry', list: true } },
      schema: { params: VersionParams, querystring: VersionQuery },
    },
    async (request, reply) => {
      const context = auditContextOf(request);
      const watchlist = await watchlists.get(context, request.params.id);
      const version = await watchlists.version(context, watchlist.id, request.params.version);
      const named = (['added', 'changed', 'removed'] as const).flatMap((kind) => version.entries[kind].slice(0, NAMED_PER_KIND));
      const entries = new Map((await watchlists.entriesWithIds(context, watchlist.id, named)).map((e) => [e.id, e]));
      recordShown(request, [...entries.keys()]);
      const imported = request.query.done === 'imported';
      return sendPage(request, reply, {
        title: `Version ${version.version}: ${watchlist.name}`,
        section: 'watchlists',
        notice: imported
          ? { kind: 'status', text: `The file is imported: ${version.added} added, ${version.changed} changed, ${version.removed} removed.` }
          : undefined,
        body: html`${trail(watchlist, `Version ${version.version}`)}
${versionSummary(version)}
${(['added', 'changed', 'removed'] as const).map((kind) => touchedSection(watchlist, kind, version.entries[kind], entries))}
<p><a href="${watchlistPath(watchlist)}/history">The full history</a></p>`,
      });
    },
  );
}

/** The versions as a table, each linking to its own page. */
export function historyTable(watchlist: Pick<Watchlist, 'id'>, versions: VersionSummary[]): Html {
  return html`<table class="history">
<thead><tr><th scope="col">Version</th><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Added</th><th scope="col">Changed</th><th scope="col">Removed</th><th scope="col">Entries after</th></tr></thead>
<tbody>${versions.map(
    (v) =>
      html`<tr><td><a href="${watchlistPath(watchlist)}/versions/${v.version}">${v.version}</a></td><td>${when(v.createdAt)}</td><td>${actorLabel(v.actor)}</td><td>${CHANGE_WORDS[v.change] ?? v.change}</td><td>${v.added}</td><td>${v.changed}</td><td>${v.removed}</td><td>${v.entryCount}</td></tr>`,
  )}</tbody>
</table>`;
}

function versionSummary(version: WatchlistVersion): Html {
  return html`<dl>
<dt>What</dt><dd>${CHANGE_WORDS[version.change] ?? version.change}${version.change === 'updated' && ': its name, slug, description, threshold or whether it is screened'}</dd>
<dt>Who</dt><dd>${actorLabel(version.actor)}</dd>
<dt>When</dt><dd>${when(version.createdAt)}</dd>
<dt>Counts</dt><dd>${version.added} added, ${version.changed} changed, ${version.removed} removed; ${version.entryCount} entries after it</dd>
<dt>Content SHA-256</dt><dd><code>${version.contentSha256}</code></dd>
${version.requestId && html`<dt>Request id</dt><dd><code>${version.requestId}</code></dd>`}
</dl>`;
}

const KIND_WORDS = { added: 'Added', changed: 'Changed', removed: 'Removed' } as const;

function touchedSection(watchlist: Pick<Watchlist, 'id'>, kind: keyof typeof KIND_WORDS, ids: string[], entries: Map<string, WatchlistEntry>): Html {
  if (ids.length === 0) return html``;
  const now = new Date();
  const more = ids.length - Math.min(ids.length, NAMED_PER_KIND);
  return html`<section aria-labelledby="${kind}-heading">
<h2 id="${kind}-heading">${KIND_WORDS[kind]} (${ids.length})</h2>
<ul>${ids.slice(0, NAMED_PER_KIND).map((id) => {
    const entry = entries.get(id);
    return html`<li><a href="${watchlistPath(watchlist)}/entries/${id}">${entry?.names[0]?.full ?? id}</a>${entry && html` ${severityBadge(entry.severity)} ${statusBadge(entryStatusAt(entry, now))}`}</li>`;
  })}</ul>
${more > 0 && html`<p class="help">And ${more} more, not listed here.</p>`}
</section>`;
}
