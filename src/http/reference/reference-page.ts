/**
 * The human-readable API reference at /api/docs, rendered on the server from the OpenAPI
 * description: operations grouped by tag with a navigation column, descriptions as Markdown,
 * parameters and bodies as field tables, examples beside them, and every named schema at the end.
 * No script, no font or asset from elsewhere: it works on a closed network, and its
 * Content-Security-Policy allows nothing but its own style sheet, by hash.
 */
import { createHash } from 'node:crypto';
import { exampleBlock, exampleOf } from './examples.ts';
import { escapeHtml, renderInline, renderMarkdown } from './markdown.ts';
import type { OpenApiDocument, Operation, Schema } from './openapi-types.ts';
import { fieldTable, schemaAnchor, typeInWords } from './schema-fields.ts';

export type { OpenApiDocument };

const STYLE = `
body{font:16px/1.55 system-ui,sans-serif;margin:0;color:#1a1a1a}
.layout{display:grid;grid-template-columns:18rem 1fr;min-height:100vh}
nav{position:sticky;top:0;align-self:start;max-height:100vh;overflow:auto;background:#f6f7f9;border-right:1px solid #dde;padding:1rem;font-size:.9rem}
nav h2{font-size:.8rem;text-transform:uppercase;letter-spacing:.04em;margin:1rem 0 .25rem;color:#555}
nav ul{list-style:none;margin:0;padding:0}nav li{margin:.15rem 0}nav a{color:#134;text-decoration:none}nav a:hover,nav a:focus{text-decoration:underline}
main{max-width:62rem;min-width:0;padding:1rem 2rem 4rem}
h2.tag{border-bottom:2px solid #ccd;margin-top:3rem}section.op{border-top:1px solid #e3e3e3;margin-top:2rem;padding-top:.5rem}
code,pre{font:14px/1.4 ui-monospace,monospace}code{overflow-wrap:anywhere}pre{background:#f5f5f7;padding:.75rem;overflow:auto;border-radius:4px}
.m{display:inline-block;min-width:3.6rem;font-weight:700;text-transform:uppercase;font-size:.8em;padding:.1rem .35rem;border-radius:3px;background:#e4ecf7;color:#134}
.m-post{background:#e3f4e8;color:#14532d}.m-put,.m-patch{background:#fdf3dc;color:#713f12}.m-delete{background:#fde4e4;color:#7f1d1d}
.badge{font-size:.75rem;background:#eef;padding:.1rem .4rem;border-radius:.2rem;margin-left:.4rem;vertical-align:middle}
table{border-collapse:collapse;margin:.5rem 0 1rem;width:100%}td,th{border:1px solid #ddd;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f7f9}.limits{color:#555;font-size:.9em}summary{cursor:pointer;color:#444}
@media (max-width:50rem){.layout{display:block}nav{position:static;max-height:none}}
`;

export const REFERENCE_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
type Entry = { path: string; method: string; op: Operation };

export function renderReferencePage(doc: OpenApiDocument): string {
  const schemas = doc.components?.schemas ?? {};
  const groups = byTag(doc);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(doc.info.title)} ${escapeHtml(doc.info.version)}: reference</title>
<style>${STYLE}</style></head><body><div class="layout">
<nav aria-label="Reference">
<p><strong>${escapeHtml(doc.info.title)}</strong> ${escapeHtml(doc.info.version)}</p>
<ul><li><a href="#overview">Overview</a></li></ul>
${groups.map(({ tag, entries }) => `<h2>${escapeHtml(tag)}</h2><ul>${entries.map((e) => `<li><a href="#${anchor(e)}"><span class="m m-${e.method}">${e.method}</span> ${escapeHtml(e.op.summary ?? e.path)}</a></li>`).join('')}</ul>`).join('\n')}
<h2>Schemas</h2><ul>${Object.keys(schemas)
    .map((name) => `<li><a href="#${schemaAnchor(name)}">${escapeHtml(name)}</a></li>`)
    .join('')}</ul>
</nav>
<main>
<h1 id="overview">${escapeHtml(doc.info.title)} <small>${escapeHtml(doc.info.version)}</small></h1>
<p>The machine-readable description is at <a href="/api/v1/openapi.json"><code>/api/v1/openapi.json</code></a>.</p>
${renderMarkdown(doc.info.description)}
${groups.map(({ tag, description, entries }) => `<h2 class="tag" id="tag-${escapeHtml(tag)}">${escapeHtml(tag)}</h2>${renderMarkdown(description)}${entries.map((e) => renderOperation(e, schemas)).join('\n')}`).join('\n')}
<h2 class="tag" id="schemas">Schemas</h2>
${Object.entries(schemas)
  .map(
    ([name, schema]) =>
      `<section id="${schemaAnchor(name)}"><h3>${escapeHtml(name)}</h3>${renderMarkdown(schema.description)}${fieldTable(withoutDescription(schema))}${exampleBlock(schema.examples?.[0])}</section>`,
  )
  .join('\n')}
</main></div></body></html>`;
}

/** Operations by tag, in the order the document declares its tags, then any others. */
function byTag(doc: OpenApiDocument): { tag: string; description?: string; entries: Entry[] }[] {
  const entries = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] as Operation })),
  );
  const declared = doc.tags ?? [];
  const names = [...new Set([...declared.map((t) => t.name), ...entries.map((e) => e.op.tags?.[0] ?? 'other')])];
  return names
    .map((tag) => ({
      tag,
      description: declared.find((t) => t.name === tag)?.description,
      entries: entries.filter((e) => (e.op.tags?.[0] ?? 'other') === tag),
    }))
    .filter((group) => group.entries.length > 0);
}

function renderOperation({ path, method, op }: Entry, schemas: Record<string, Schema>): string {
  const badges = ['x-tier', 'x-permission']
    .filter((key) => op[key as `x-${string}`])
    .map((key) => `<span class="badge">${escapeHtml(String(op[key as `x-${string}`]))}${key === 'x-tier' ? ' tier' : ''}</span>`);
  const params = op.parameters ?? [];
  const body = Object.entries(op.requestBody?.content ?? {});
  return `<section class="op" id="${anchor({ path, method, op })}">
<h3><span class="m m-${method}">${method}</span> <code>${escapeHtml(path)}</code>${badges.join('')}</h3>
${op.summary ? `<p><strong>${renderInline(op.summary)}</strong></p>` : ''}${renderMarkdown(op.description)}
${params.length > 0 ? `<h4>Parameters</h4><table class="fields"><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead><tbody>${params.map((p) => `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${escapeHtml(p.in)}</td><td>${p.schema ? typeInWords(p.schema) : ''}</td><td>${p.required ? 'yes' : 'no'}</td><td>${renderInline(p.description ?? p.schema?.description)}</td></tr>`).join('')}</tbody></table>` : ''}
${body.map(([type, media]) => `<h4>Request body <code>${escapeHtml(type)}</code></h4>${fieldTable(media.schema)}${exampleBlock(exampleOf(media, schemas))}`).join('')}
<h4>Responses</h4>
${Object.entries(op.responses ?? {})
  .map(
    ([status, response]) =>
      `<h5>${escapeHtml(status)} ${renderInline(meaningful(response.description))}</h5>${Object.entries(response.content ?? {})
        .map(([type, media]) => `<p><code>${escapeHtml(type)}</code></p>${fieldTable(media.schema)}${exampleBlock(exampleOf(media, schemas))}`)
        .join('')}`,
  )
  .join('\n')}
</section>`;
}

/** A named schema's own description is shown above its table, not again in it. */
const withoutDescription = ({ description: _description, ...schema }: Schema): Schema => schema;

/** Fastify's placeholder for an undescribed answer says nothing, so it is not shown. */
const meaningful = (description: string | undefined) => (description && description !== 'Default Response' ? description : '');

const anchor = ({ method, path }: Entry) => `${method}-${path.replace(/[^A-Za-z0-9]+/g, '-')}`;
