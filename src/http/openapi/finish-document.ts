/**
 * What @fastify/swagger builds from the routes' schemas, finished into a document generators and
 * linters take as it is: every operation gets its `operationId`, its error answers one status at
 * a time with their codes, the headers every answer carries, a description for every answer and
 * an example for every request and answer body; the document gets its declared tags, the
 * headers' definitions, its default security, and `webhooks`: the events it sends. Public operations say they need no credential.
 */
import { addErrorResponses, type Operation } from './error-responses.ts';
import { exampleOf } from './example-values.ts';
import { operationIdFor } from './operation-ids.ts';
import { headerRefs, RESPONSE_HEADERS, type ResponseHeaderName } from './response-headers.ts';
import { TAGS } from './tags.ts';
import { webhooksObject } from './webhooks.ts';

type Media = { schema?: Record<string, unknown>; example?: unknown; examples?: unknown };
type Response = { description?: string; headers?: Record<string, unknown>; content?: Record<string, Media> };
type Document = {
  tags?: unknown;
  webhooks?: unknown;
  security?: unknown;
  components: { schemas?: Record<string, Record<string, unknown>>; headers?: unknown; [key: string]: unknown };
  paths: Record<string, Record<string, Operation & { summary?: string; operationId?: string; requestBody?: { content?: Record<string, Media> } }>>;
};

/** What a success answer is, when its route says no more than its schema. */
const SUCCESS: Record<string, string> = { 200: 'Done', 201: 'Created', 202: 'Accepted', 204: 'Done, with no body' };

export function finishDocument<T>(input: T): T {
  const doc = input as unknown as Document;
  const schemas = doc.components.schemas ?? {};
  doc.tags = TAGS;
  doc.security = [{ bearerAuth: [] }];
  doc.components.headers = RESPONSE_HEADERS;
  doc.webhooks = webhooksObject();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      operation.operationId = operationIdFor(method, path);
      const authenticated = Boolean(operation.security?.length);
      if (!authenticated) operation.security = [];
      const common: ResponseHeaderName[] = authenticated ? ['X-Request-ID', 'RateLimit', 'RateLimit-Policy'] : ['X-Request-ID'];
      for (const [status, response] of Object.entries(operation.responses) as [string, Response][]) {
        if (/^[45]XX$/.test(status)) continue;
        response.headers = { ...headerRefs(common), ...response.headers };
        if (!response.description || response.description === 'Default Response') {
          response.description = describedBySchema(response, schemas) ?? `${SUCCESS[status] ?? `Status ${status}`}: ${operation.summary ?? 'the answer'}.`;
        }
        addExamples(response.content, schemas);
      }
      addExamples(operation.requestBody?.content, schemas);
      markDeprecatedParameters(operation as { parameters?: Parameter[] });
      addErrorResponses(operation, common);
    }
  }
  return input;
}

type Parameter = { deprecated?: boolean; schema?: { deprecated?: boolean } };

/** A query parameter whose schema says `deprecated` (a name kept for old integrations) is marked so itself, where generators and readers look. */
function markDeprecatedParameters(operation: { parameters?: Parameter[] }) {
  for (const parameter of operation.parameters ?? []) if (parameter.schema?.deprecated) parameter.deprecated = true;
}

/** The description of the schema an answer returns, when it is a named one that has it. */
function describedBySchema(response: Response, schemas: Record<string, Record<string, unknown>>): string | undefined {
  const schema = Object.values(response.content ?? {})[0]?.schema;
  const named = typeof schema?.$ref === 'string' ? schemas[schema.$ref.split('/').pop() as string] : undefined;
  return (named?.description ?? schema?.description) as string | undefined;
}

function addExamples(content: Record<string, Media> | undefined, schemas: Record<string, Record<string, unknown>>) {
  for (const [type, media] of Object.entries(content ?? {})) {
    if (!/^application\/(problem\+)?json$/.test(type) || media.example !== undefined || media.examples !== undefined) continue;
    const example = exampleOf(media.schema, schemas);
    if (example !== undefined) media.example = example;
  }
}
