/**
 * Request validation. Bodies are checked strictly: no type coercion, and a field the schema does
 * not name is an error rather than silently dropped, so a caller's typo ("subjcet") is reported
 * instead of ignored. Query strings, path parameters and headers arrive as text, so there numbers
 * and booleans are coerced.
 */
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from './errors.ts';

const addFormats = addFormatsPlugin as unknown as (ajv: Ajv) => Ajv;

const shared: Options = {
  allErrors: true, // report every problem at once, not one per round trip
  removeAdditional: false,
  useDefaults: true,
  // TypeBox and OpenAPI annotations (x-*, example) are not Ajv keywords.
  strict: false,
};

/**
 * Builds the compiler for one encapsulation scope. Fastify calls this again for every scope that
 * adds shared schemas, handing them over so `$ref`s to them resolve.
 */
export function buildValidatorCompiler(sharedSchemas: Record<string, unknown> = {}): FastifySchemaCompiler<unknown> {
  const bodyAjv = addFormats(new Ajv({ ...shared, coerceTypes: false }));
  const textAjv = addFormats(new Ajv({ ...shared, coerceTypes: 'array' }));
  for (const schema of Object.values(sharedSchemas)) {
    bodyAjv.addSchema(schema as object);
    textAjv.addSchema(schema as object);
  }
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);
}

const PART_NAMES: Record<string, FieldError['in']> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

/** Turns Ajv's errors into one entry per offending value, each with a JSON Pointer. */
export function toFieldErrors(errors: ErrorObject[], context: string | undefined): FieldError[] {
  const where = PART_NAMES[context ?? 'body'] ?? 'body';
  return collapseAlternatives(errors).map((error) => {
    const { pointer, detail } = describe(error);
    return { pointer, detail, in: where };
  });
}

/**
 * A value that matches none of a union's branches makes Ajv report every branch and then the
 * union; the caller needs one line. For a union of constants that line lists the allowed values.
 */
function collapseAlternatives(errors: ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  if (unions.length === 0) return errors;
  return errors.flatMap((error) => {
    const union = unions.find((u) => u !== error && error.instancePath === u.instancePath && error.schemaPath.startsWith(u.schemaPath));
    if (union) return [];
    if (!unions.includes(error)) return [error];
    const allowed = errors
      .filter((e) => e.keyword === 'const' && e.instancePath === error.instancePath && e.schemaPath.startsWith(error.schemaPath))
      .map((e) => (e.params as { allowedValue: unknown }).allowedValue);
    return [allowed.length > 0 ? { ...error, keyword: 'enum', params: { allowedValues: allowed } } : error];
  });
}

function describe(error: ErrorObject): { pointer: string; detail: string } {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { pointer: `${error.instancePath}/${escape(String(params.missingProperty))}`, detail: 'is required' };
    case 'additionalProperties':
      return {
        pointer: `${error.instancePath}/${escape(String(params.additionalProperty))}`,
        detail: 'is not a known field',
      };
    case 'enum':
      return {
        pointer: error.instancePath,
        detail: `must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
      };
    default:
      return { pointer: error.instancePath, detail: error.message ?? 'is not valid' };
  }
}

/** RFC 6901: "~" and "/" inside a member name are written "~0" and "~1". */
const escape = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');
