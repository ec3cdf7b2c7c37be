/**
 * A JSON Schema as people read it: one table row per field (nested fields as `parent.child`,
 * items of a list as `list[].field`), with its type in words, whether it is required, its
 * description and its limits. Named schemas are linked, not repeated.
 */
import { escapeHtml, renderInline } from './markdown.ts';
import type { Schema } from './openapi-types.ts';

export type FieldRow = { name: string; type: string; required: boolean; description: string };

/** Nested objects are expanded this deep; deeper ones are shown by their type. */
const MAX_DEPTH = 4;

export const schemaAnchor = (name: string) => `schema-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
const refName = (ref: string) => ref.split('/').pop() ?? ref;
const code = (value: unknown) => `<code>${escapeHtml(typeof value === 'string' ? value : JSON.stringify(value))}</code>`;

export function fieldRows(schema: Schema, prefix = '', depth = 0): FieldRow[] {
  const object = objectOf(schema);
  if (!object?.properties) return [];
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties).flatMap(([key, field]) => {
    const name = `${prefix}${key}`;
    const row = {
      name,
      type: typeInWords(field),
      required: required.has(key),
      description: [renderInline(field.description), limits(field)].filter(Boolean).join(' '),
    };
    if (depth + 1 >= MAX_DEPTH) return [row];
    const inner = objectOf(field);
    const items = field.items && objectOf(field.items);
    const nested = inner?.properties ? fieldRows(inner, `${name}.`, depth + 1) : items?.properties ? fieldRows(items, `${name}[].`, depth + 1) : [];
    return [row, ...nested];
  });
}

/** The object a schema describes, looking through `X or null`; undefined for a named schema (it is linked). */
function objectOf(schema: Schema): Schema | undefined {
  if (schema.$ref) return undefined;
  if (schema.properties) return schema;
  const branches = (schema.anyOf ?? schema.oneOf ?? []).filter((b) => b.type !== 'null');
  return branches.length === 1 && branches[0] ? objectOf(branches[0]) : undefined;
}

/** Consts of a union of single values: `a`, `b`, … (TypeBox writes an enum of literals this way). */
function constants(schema: Schema): unknown[] | undefined {
  if (schema.enum) return schema.enum;
  if ('const' in schema) return [schema.const];
  const branches = schema.anyOf ?? schema.oneOf;
  if (!branches?.length) return undefined;
  const values = branches.map(constants);
  return values.every((v) => v !== undefined) ? values.flat() : undefined;
}

export function typeInWords(schema: Schema): string {
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return `<a href="#${schemaAnchor(name)}">${escapeHtml(name)}</a>`;
  }
  const values = constants(schema);
  if (values) return values.length === 1 ? code(values[0]) : `one of ${values.map(code).join(', ')}`;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const shown = branches.filter((b) => b.type !== 'null').map(typeInWords);
    const nullable = branches.length > shown.length ? ' or null' : '';
    return `${shown.join(' or ')}${nullable}`;
  }
  const types = [schema.type ?? (schema.properties ? 'object' : 'any')].flat();
  const words = types
    .filter((t) => t !== 'null')
    .map((type) => {
      if (type === 'array') return `array of ${schema.items ? typeInWords(schema.items) : 'any'}`;
      if (type === 'object' && typeof schema.additionalProperties === 'object') return `map of ${typeInWords(schema.additionalProperties)}`;
      return typeof schema.format === 'string' ? `${type} (${escapeHtml(schema.format)})` : escapeHtml(type);
    });
  return `${words.join(' or ')}${types.includes('null') ? ' or null' : ''}`;
}

/** The limits a caller must respect, in words. */
function limits(schema: Schema): string {
  const said: string[] = [];
  const n = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number).toLocaleString('en-US') : undefined);
  if (n('minLength') && n('maxLength')) said.push(`${n('minLength')} to ${n('maxLength')} characters`);
  else if (n('maxLength')) said.push(`at most ${n('maxLength')} characters`);
  if (n('minimum') !== undefined && n('maximum') !== undefined) said.push(`${n('minimum')} to ${n('maximum')}`);
  else if (n('maximum') !== undefined) said.push(`at most ${n('maximum')}`);
  if (n('maxItems')) said.push(`at most ${n('maxItems')} items`);
  if (typeof schema.pattern === 'string') said.push(`matching ${code(schema.pattern)}`);
  if ('default' in schema) said.push(`default ${code(schema.default)}`);
  return said.length > 0 ? `<span class="limits">(${said.join('; ')})</span>` : '';
}

export function fieldTable(schema: Schema | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return `<p>A ${typeInWords(schema)}.</p>`;
  const rows = fieldRows(schema);
  if (rows.length === 0) return `<p>${typeInWords(schema)}${schema.description ? `: ${renderInline(schema.description)}` : ''}</p>`;
  return `<table class="fields"><thead><tr><th scope="col">Field</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr></thead><tbody>
${rows.map((r) => `<tr><td><code>${escapeHtml(r.name)}</code></td><td>${r.type}</td><td>${r.required ? 'yes' : 'no'}</td><td>${r.description}</td></tr>`).join('\n')}
</tbody></table>`;
}
