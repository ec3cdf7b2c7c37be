/**
 * Request validation. Bodies are checked strictly: no type coercion, and a field the schema does
 * not name is an error rather than silently dropped, so a caller's typo ("subjcet") is reported
 * instead of ignored. Query strings, path parameters and headers arrive as text, so there numbers
 * and booleans are coerced.
 */
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsPlugin from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { compiledOnFirstUse } from './compiled-on-first-use.ts';
import { type FieldError, MAX_FIELD_ERRORS } from './errors.ts';
import { pointerSegment } from './json-pointer.ts';
import { type BodyValidator, slicedBodyValidator } from './sliced-validation.ts';

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
  // Made with the first validator compiled (compiled-on-first-use.ts): an Ajv instance compiles its meta-schema as it is made.
  let instances: { body: Ajv; text: Ajv } | undefined;
  const ajv = () => {
    if (instances) return instances;
    instances = { body: addFormats(new Ajv({ ...shared, coerceTypes: false })), text: addFormats(new Ajv({ ...shared, coerceTypes: 'array' })) };
    for (const schema of Object.values(sharedSchemas)) {
      instances.body.addSchema(schema as object);
      instances.text.addSchema(schema as object);
    }
    return instances;
  };
  const compile = (schema: object, httpPart: string | undefined): BodyValidator => {
    const { body, text } = ajv();
    return httpPart === 'body' ? (slicedBodyValidator(body, schema as Record<string, unknown>) ?? body.compile(schema)) : text.compile(schema);
  };
  // Fastify awaits a validator's promise; its types brand the promise it accepts.
  return ({ schema, httpPart }) => validatorOnFirstUse(() => compile(schema as object, httpPart)) as ReturnType<FastifySchemaCompiler<unknown>>;
}

/**
 * A validator compiled when first called (compiled-on-first-use.ts). Fastify reads `schemaEnv`
 * (Ajv's, to let a validator replace a coerced root value) before each call, and `errors` after
 * it: both are the compiled validator's.
 */
function validatorOnFirstUse(compile: () => BodyValidator): BodyValidator {
  const validator = compiledOnFirstUse(compile);
  const validate = ((data: unknown, context?: unknown) =>
    (validator() as (data: unknown, context?: unknown) => boolean | Promise<boolean>)(data, context)) as BodyValidator;
  Object.defineProperties(validate, {
    errors: { get: () => validator().errors ?? null },
    schemaEnv: { get: () => (validator() as { schemaEnv?: unknown }).schemaEnv },
  });
  return validate;
}

const bodyValidators = new WeakMap<object, BodyValidator>();
let compileBody: FastifySchemaCompiler<unknown> | undefined;

/**
 * A body's problems with `schema`, each with its pointer (none: it passes), for a body checked
 * outside a route (a console form, a CSV import's rows): the same validator a route's body meets,
 * compiled once per schema.
 */
export async function schemaProblems(schema: object, body: unknown): Promise<FieldError[]> {
  let validate = bodyValidators.get(schema);
  if (!validate) {
    compileBody ??= buildValidatorCompiler();
    validate = compileBody({ schema, httpPart: 'body', method: 'POST', url: '/' } as never) as BodyValidator;
    bodyValidators.set(schema, validate);
  }
  return (await validate(body)) ? [] : toFieldErrors(validate.errors ?? [], 'body').errors;
}

const PART_NAMES: Record<string, FieldError['in']> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

/** The first MAX_FIELD_ERRORS offending values, each with a JSON Pointer, and whether there were more. */
export type FieldErrors = { errors: FieldError[]; truncated: boolean };

/**
 * Turns Ajv's errors into one entry per offending value, each with a JSON Pointer. Linear in the
 * number of Ajv's errors, whatever their shape: a body of thousands of bad values must not buy
 * seconds of the event loop with its refusal.
 */
export function toFieldErrors(errors: ErrorObject[], context: string | undefined): FieldErrors {
  const where = PART_NAMES[context ?? 'body'] ?? 'body';
  const collapsed = collapseAlternatives(errors);
  const listed = collapsed.slice(0, MAX_FIELD_ERRORS).map((error) => ({ ...describe(error), in: where }));
  return { errors: listed, truncated: collapsed.length > listed.length };
}

/**
 * A value that matches none of a union's branches makes Ajv report every branch and then the
 * union; the caller needs one line. For a union of constants that line lists the allowed values.
 * Errors are grouped by the value they are about, so each is compared only with its own value's
 * unions.
 */
function collapseAlternatives(errors: ErrorObject[]): ErrorObject[] {
  const unionsAt = new Map<string, ErrorObject[]>();
  for (const e of errors) if (e.keyword === 'anyOf' || e.keyword === 'oneOf') unionsAt.set(e.instancePath, [...(unionsAt.get(e.instancePath) ?? []), e]);
  if (unionsAt.size === 0) return errors;
  const constsAt = new Map<string, ErrorObject[]>();
  for (const e of errors) if (e.keyword === 'const' && unionsAt.has(e.instancePath)) constsAt.set(e.instancePath, [...(constsAt.get(e.instancePath) ?? []), e]);
  return errors.flatMap((error) => {
    const unions = unionsAt.get(error.instancePath) ?? [];
    if (unions.some((u) => u !== error && error.schemaPath.startsWith(u.schemaPath))) return [];
    if (!unions.includes(error)) return [error];
    const allowed = (constsAt.get(error.instancePath) ?? [])
      .filter((e) => e.schemaPath.startsWith(error.schemaPath))
      .map((e) => (e.params as { allowedValue: unknown }).allowedValue);
    return [allowed.length > 0 ? { ...error, keyword: 'enum', params: { allowedValues: allowed } } : error];
  });
}

function describe(error: ErrorObject): { pointer: string; detail: string } {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { pointer: `${error.instancePath}/${pointerSegment(String(params.missingProperty))}`, detail: 'is required' };
    case 'additionalProperties':
      return {
        pointer: `${error.instancePath}/${pointerSegment(String(params.additionalProperty))}`,
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
