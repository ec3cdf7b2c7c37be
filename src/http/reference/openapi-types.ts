/**
 * The parts of an OpenAPI 3.1 document the reference page reads. Schemas are JSON Schema, kept
 * loose: the page shows what it recognises and prints the rest as JSON.
 */
export type Schema = {
  $ref?: string;
  type?: string | string[];
  description?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  additionalProperties?: boolean | Schema;
  examples?: unknown[];
  example?: unknown;
  [keyword: string]: unknown;
};

export type Media = { schema?: Schema; example?: unknown; examples?: Record<string, { summary?: string; value?: unknown }> };

export type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { description?: string; content?: Record<string, Media> };
  responses?: Record<string, { description?: string; headers?: Record<string, { description?: string; schema?: Schema }>; content?: Record<string, Media> }>;
  [extension: `x-${string}`]: unknown;
};

export type OpenApiDocument = {
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
};
