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

const bodyAjv = addFormats(new Ajv({ ...shared, coerceTypes: false }));
const textAjv = addFormats(new Ajv({ ...shared, coerceTypes: 'array' }));

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);

const PART_NAMES: Record<string, FieldError['in']> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

/** Turns Ajv's errors into one entry per offending value, each with a JSON Pointer. */
export function toFieldErrors(errors: ErrorObject[], context: string | undefined): FieldError[] {
  const where = PART_NAMES[context ?? 'body'] ?? 'body';
  return errors.map((error) => {
    const { pointer, detail } = describe(error);
    return { pointer, detail, in: where };
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
