/**
 * The example a reader sees beside a request or a response: the one the description gives for the
 * media type, else the schema's first (a named schema's, through its reference).
 */
import { escapeHtml } from './markdown.ts';
import type { Media, Schema } from './openapi-types.ts';

export function exampleOf(media: Media, schemas: Record<string, Schema>): unknown {
  if (media.example !== undefined) return media.example;
  const named = Object.values(media.examples ?? {})[0];
  if (named?.value !== undefined) return named.value;
  return schemaExample(media.schema, schemas);
}

function schemaExample(schema: Schema | undefined, schemas: Record<string, Schema>): unknown {
  if (!schema) return undefined;
  if (schema.$ref) return schemaExample(schemas[schema.$ref.split('/').pop() ?? ''], schemas);
  return schema.examples?.[0] ?? schema.example;
}

export const exampleBlock = (example: unknown) =>
  example === undefined ? '' : `<details open><summary>Example</summary><pre><code>${escapeHtml(JSON.stringify(example, null, 2))}</code></pre></details>`;
