/**
 * The human-readable API reference at /api/docs: plain HTML rendered on the server from the
 * OpenAPI description. No scripts, no fonts or assets from elsewhere, so it works on a closed
 * network and under a strict Content-Security-Policy.
 */
type Schema = { $ref?: string; [key: string]: unknown };
type Operation = {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Schema }> }>;
  [extension: `x-${string}`]: unknown;
};
export type OpenApiDocument = {
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};

export const REFERENCE_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function renderReferencePage(doc: OpenApiDocument): string {
  const operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] as Operation })),
  );
  const schemas = Object.entries(doc.components?.schemas ?? {});
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.info.title)} ${esc(doc.info.version)}: reference</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
h2{border-bottom:1px solid #ccc;margin-top:2.5rem}code,pre{font:14px/1.4 ui-monospace,monospace}
pre{background:#f5f5f5;padding:.75rem;overflow:auto}.m{font-weight:700;text-transform:uppercase}
table{border-collapse:collapse}td,th{border:1px solid #ddd;padding:.25rem .5rem;text-align:left}
nav li{list-style:none}.tier{font-size:.55em;font-weight:400;vertical-align:middle;background:#eef;padding:.1rem .4rem;border-radius:.2rem}
</style></head><body>
<h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1>
<p>The machine-readable description is at <a href="/api/v1/openapi.json"><code>/api/v1/openapi.json</code></a>.</p>
${paragraphs(doc.info.description ?? '')}
<nav aria-label="Endpoints"><h2>Endpoints</h2><ul>
${operations.map(({ path, method, op }) => `<li><a href="#${anchor(method, path)}"><span class="m">${method}</span> <code>${esc(path)}</code></a> ${esc(op.summary ?? '')}</li>`).join('\n')}
</ul></nav>
${operations.map(({ path, method, op }) => renderOperation(path, method, op)).join('\n')}
<h2 id="schemas">Schemas</h2>
${schemas.map(([name, schema]) => `<h3 id="schema-${esc(name)}">${esc(name)}</h3><pre>${esc(JSON.stringify(schema, null, 2))}</pre>`).join('\n')}
</body></html>`;
}

function renderOperation(path: string, method: string, op: Operation): string {
  const tier = op['x-tier'] ? ` <span class="tier">${esc(String(op['x-tier']))} tier</span>` : '';
  const params = op.parameters ?? [];
  const body = op.requestBody?.content ?? {};
  return `<section id="${anchor(method, path)}">
<h2><span class="m">${method}</span> <code>${esc(path)}</code>${tier}</h2>
${op.summary ? `<p><strong>${esc(op.summary)}</strong></p>` : ''}${paragraphs(op.description ?? '')}
${params.length ? `<h3>Parameters</h3><table><tr><th>Name</th><th>In</th><th>Required</th><th>Description</th></tr>${params.map((p) => `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${esc(p.description ?? '')}</td></tr>`).join('')}</table>` : ''}
${Object.entries(body).map(([type, media]) => `<h3>Request body <code>${esc(type)}</code></h3>${renderSchema(media.schema)}`).join('')}
<h3>Responses</h3>
${Object.entries(op.responses ?? {}).map(([status, response]) => `<h4>${esc(status)} ${esc(meaningful(response.description))}</h4>${Object.entries(response.content ?? {}).map(([type, media]) => `<p><code>${esc(type)}</code></p>${renderSchema(media.schema)}`).join('')}`).join('\n')}
</section>`;
}

function renderSchema(schema: Schema | undefined): string {
  if (!schema) return '';
  if (schema.$ref) {
    const name = schema.$ref.split('/').pop() ?? schema.$ref;
    return `<p>See <a href="#schema-${esc(name)}">${esc(name)}</a>.</p>`;
  }
  return `<pre>${esc(JSON.stringify(schema, null, 2))}</pre>`;
}

/** Fastify's placeholder for an undescribed answer says nothing, so it is not shown. */
const meaningful = (description: string | undefined) => (description && description !== 'Default Response' ? description : '');

const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .filter((p) => p.trim())
    .map((p) => `<p>${esc(p.trim()).replace(/`([^`]+)`/g, '<code>$1</code>').replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')}</p>`)
    .join('\n');

const anchor = (method: string, path: string) => `${method}-${path.replace(/[^A-Za-z0-9]+/g, '-')}`;

const esc = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
