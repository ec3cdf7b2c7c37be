/**
 * A watchlist's entries imported from a CSV file chosen in the browser (a multipart form, read in
 * a scope of its own: the file may be as large as the API's import takes), in `upsert` or
 * `replace` mode, through the same service as PUT /api/v1/watchlists/{id}/entries: all or nothing.
 * Refused, the page lists every problem by its row and column in the file, or says in words why a
 * replace that would remove too many entries was refused. Done, it goes to the version the
 * import made, which names what it added, changed and removed.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { auditContextOf } from '../../../http/audit-context.ts';
import { AppError } from '../../../http/errors.ts';
import type { Api } from '../../../http/feature.ts';
import { SHRINK_MIN_REMOVALS } from '../../../shrink-limit.ts';
import { CSV_COLUMNS, type CsvFieldError, entriesFromCsv } from '../../watchlists/entry-csv.ts';
import { IMPORT_BODY_LIMIT_BYTES, IMPORT_RUNNING_MS, IMPORT_SHRINK_LIMIT_PERCENT, MAX_IMPORT_ENTRIES } from '../../watchlists/import-schemas.ts';
import type { WatchlistService } from '../../watchlists/service.ts';
import { WatchlistParams } from '../../watchlists/watchlist-schemas.ts';
import { type Html, html } from '../html.ts';
import { csrfField, sendPage } from '../layout.ts';
import { acceptMultipartForms } from '../multipart-form.ts';
import { KEEP_ENTRIES, trail, watchlistPath } from './watchlist-words.ts';

const ImportQuery = Type.Object({ done: Type.Optional(Type.Literal('unchanged')) });
const ImportForm = Type.Object({
  _csrf: Type.String({ maxLength: 200 }),
  // The file's size is bounded by the body limit below.
  file: Type.Optional(Type.String()),
  mode: Type.String({ enum: ['upsert', 'replace'] }),
  allow_shrink: Type.Optional(Type.Literal('on')),
});
/** Room for the form's other fields and the multipart framing beside the largest file the API takes. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

type Deps = { watchlists: Pick<WatchlistService, 'get' | 'importEntries'> };

export function registerImportPage(api: Api, deps: Deps) {
  async function showImport(request: FastifyRequest, reply: FastifyReply, id: string, outcome?: { refusal?: AppError; mode?: string; unchanged?: boolean }) {
    const watchlist = await deps.watchlists.get(auditContextOf(request), id);
    return sendPage(request, reply, {
      title: `Import entries into ${watchlist.name}`,
      section: 'watchlists',
      status: outcome?.refusal?.status ?? 200,
      notice: outcome?.unchanged ? { kind: 'status', text: 'Nothing changed: every row of the file is an entry the watchlist holds as it is.' } : undefined,
      body: html`${trail(watchlist, 'Import a CSV file')}
${outcome?.refusal && refusalBox(outcome.refusal)}
${importForm(watchlistPath(watchlist), csrfField(request, reply), outcome?.mode ?? 'upsert')}
${columnsHelp()}`,
    });
  }

  api.get('/watchlists/:id/import', { config: KEEP_ENTRIES, schema: { params: WatchlistParams, querystring: ImportQuery } }, async (request, reply) =>
    showImport(request, reply, request.params.id, { unchanged: request.query.done === 'unchanged' }),
  );

  api.register(async (scope) => {
    acceptMultipartForms(scope as Api, IMPORT_BODY_LIMIT_BYTES + FORM_OVERHEAD_BYTES);
    (scope as Api).post(
      '/watchlists/:id/import',
      { config: { ...KEEP_ENTRIES, longRunningMs: IMPORT_RUNNING_MS }, schema: { params: WatchlistParams, body: ImportForm } },
      async (request, reply) => {
        const { id } = request.params;
        const { file = '', mode, allow_shrink } = request.body;
        try {
          if (file === '')
            throw new AppError('validation_failed', 'Choose the CSV file to import.', { errors: [{ pointer: '/file', detail: 'is required', in: 'body' }] });
          const source = { format: 'csv' as const, ...entriesFromCsv(file) };
          const result = await deps.watchlists.importEntries(auditContextOf(request), id, source, {
            mode: mode as 'upsert' | 'replace',
            allowShrink: allow_shrink === 'on',
          });
          const path = watchlistPath({ id });
          return reply.redirect(result.version === null ? `${path}/import?done=unchanged` : `${path}/versions/${result.version}?done=imported`, 303);
        } catch (error) {
          if (!(error instanceof AppError) || !['validation_failed', 'watchlist_shrink_refused'].includes(error.code)) throw error;
          return showImport(request, reply, id, { refusal: error, mode });
        }
      },
    );
  });
}

/** A refused import: every problem by row and column, or the shrink limit in words. Nothing was changed either way. */
function refusalBox(refusal: AppError): Html {
  if (refusal.code === 'watchlist_shrink_refused') {
    const x = refusal.extras as { live_entries: number; entries_in_request: number; would_remove: number; removal_limit: number };
    return html`<div class="notice notice-alert" role="alert">
<p><strong>Nothing was changed.</strong> Replacing the entries with this file would remove ${x.would_remove} of the watchlist’s ${x.live_entries} entries (the file holds ${x.entries_in_request} rows), and at most ${x.removal_limit} may be removed at once.</p>
<p>A file this much shorter than the watchlist is more often a cut-off export than that many entries really going. If they really go, tick “Allow removing more than the limit”, choose the file again and import it.</p>
</div>`;
  }
  const errors = (refusal.extras.errors ?? []) as CsvFieldError[];
  // Not a problem of the file's rows (no file chosen): the refusal says it all.
  if (errors.every((e) => e.row === undefined)) return html`<div class="notice notice-alert" role="alert"><p>${refusal.detail}</p></div>`;
  const truncated = refusal.extras.errors_truncated === true;
  return html`<div class="notice notice-alert" role="alert">
<p><strong>The file was refused; nothing was changed.</strong> ${
    errors.length === 1
      ? 'It has a problem'
      : `It has ${truncated ? `more than ${errors.length}` : errors.length} problems${truncated ? `; the first ${errors.length} are listed` : ''}`
  }. Correct the file and import it again.</p>
<table class="problems">
<thead><tr><th scope="col">Row</th><th scope="col">Column</th><th scope="col">Problem</th></tr></thead>
<tbody>${errors.map((e) => html`<tr><td>${e.row ?? '—'}</td><td>${e.column ?? '—'}</td><td>${withoutPlace(e)}</td></tr>`)}</tbody>
</table>
</div>`;
}

/** The problem without the "row 3, column countries: " its detail starts with, when the table's cells already say so. */
function withoutPlace(error: CsvFieldError): string {
  const place = error.column ? `row ${error.row}, column ${error.column}: ` : `row ${error.row}: `;
  return error.row !== undefined && error.detail.startsWith(place) ? error.detail.slice(place.length) : error.detail;
}

function importForm(path: string, csrf: Html, mode: string): Html {
  const radio = (value: string, label: string) =>
    html`<p><input type="radio" id="mode-${value}" name="mode" value="${value}"${mode === value ? html` checked` : ''}> <label for="mode-${value}">${label}</label></p>`;
  return html`<form class="stack" method="post" action="${path}/import" enctype="multipart/form-data">
${csrf}
<p><label for="import-file">CSV file</label> <input type="file" id="import-file" name="file" accept=".csv,text/csv" required aria-describedby="import-file-help">
<span id="import-file-help" class="help">UTF-8, up to ${MAX_IMPORT_ENTRIES.toLocaleString('en')} rows and ${IMPORT_BODY_LIMIT_BYTES / 2 ** 20} MiB. The columns are below.</span></p>
<fieldset><legend>How</legend>
${radio('upsert', 'Add and change: add the rows that are new, change the entries whose rows differ, keep every other entry')}
${radio('replace', 'Replace: the same, and remove every entry the file does not hold')}
</fieldset>
<p><input type="checkbox" id="allow-shrink" name="allow_shrink"> <label for="allow-shrink">Allow removing more than the limit (a replace may remove ${IMPORT_SHRINK_LIMIT_PERCENT}% of the entries, or ${SHRINK_MIN_REMOVALS} when that is more, never all)</label></p>
<p><button type="submit">Import the file</button></p>
<p class="help">All or nothing: one bad row refuses the whole file, with every problem listed by row and column.</p>
</form>`;
}

function columnsHelp(): Html {
  return html`<section aria-labelledby="columns-heading">
<h2 id="columns-heading">The file’s columns</h2>
<p>A header row names the columns, in any order: <code>${CSV_COLUMNS.join(',')}</code>. Only <code>name</code>, <code>reason</code> and <code>severity</code> (red, orange or yellow) are required; an empty cell is an absent field.</p>
<p><code>aliases</code>, <code>dates_of_birth</code>, <code>countries</code> and <code>identifiers</code> hold their items separated by <code>|</code>; an identifier is <code>type:value</code> or <code>type:value:country</code>. A row is matched to an entry by <code>external_id</code> (a row without one, to an entry without one with the same facts). An export from the API imports back unchanged.</p>
</section>`;
}
