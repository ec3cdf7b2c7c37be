/**
 * Bodies with long arrays are validated in slices, so that no request holds the event loop for
 * more than a few milliseconds, and stop collecting errors once more than an answer lists.
 *
 * Ajv validates a value in one synchronous call and, collecting every error, goes on through
 * every item of an array that is already too long: a 421 KB ownership check of 16,000 bad
 * entities cost 48,000 errors, and a valid one of 100,000 entities a quarter of a second in one
 * piece. So a body schema's top-level arrays are taken apart:
 *   1. the body is first checked against a shell of its schema in which those arrays carry only
 *      their own limits (how many items, not what each is): an array too long is refused by
 *      that alone, its items unread;
 *   2. then the items are checked, a few milliseconds' worth at a time with a turn of the event
 *      loop between, stopping once more items have failed than an answer lists.
 * Uniqueness is checked on the items' canonical JSON in one pass (Ajv compares every pair).
 * Everything else, and every body schema without a top-level array, is Ajv's as before.
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { canonicalJson } from '../canonical-json.ts';
import { MAX_FIELD_ERRORS } from './errors.ts';
import { pointerSegment } from './json-pointer.ts';

/** How long items are checked before other requests get a turn. */
const SLICE_MS = 4;
/** Items checked between two looks at the clock. */
const ITEMS_PER_CLOCK_READ = 64;

type JsonSchema = Record<string, unknown>;
type SlicedArray = { name: string; item: ValidateFunction; unique: boolean };

/** A body validator as Fastify calls it: true, false with `errors`, or a promise of either for a body with many items. */
export type BodyValidator = ((data: unknown) => boolean | Promise<boolean>) & { errors?: ErrorObject[] | null };

/** The sliced validator for this body schema, or undefined when it has no top-level array to slice. */
export function slicedBodyValidator(ajv: Ajv, schema: JsonSchema): BodyValidator | undefined {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (schema.type !== 'object' || !properties) return undefined;
  const arrays = Object.entries(properties).filter(([, property]) => property.type === 'array' && isObject(property.items));
  if (arrays.length === 0) return undefined;

  const shellProperties = { ...properties };
  const sliced: SlicedArray[] = [];
  for (const [name, property] of arrays) {
    const { items, uniqueItems, ...limits } = property;
    shellProperties[name] = limits;
    sliced.push({ name, item: ajv.compile(items as JsonSchema), unique: uniqueItems === true });
  }
  const shell = ajv.compile({ ...schema, properties: shellProperties });

  const validate: BodyValidator = (data) => {
    validate.errors = null;
    const errors: ErrorObject[] = shell(data) ? [] : [...(shell.errors ?? [])];
    if (!isObject(data)) return settle(validate, errors);
    // Items are read only in arrays that passed their own limits: a list too long is refused for that alone.
    const refused = new Set(errors.map((e) => e.instancePath));
    const work = sliced.filter((s) => Array.isArray(data[s.name]) && !refused.has(`/${pointerSegment(s.name)}`));
    const itemCount = work.reduce((sum, s) => sum + (data[s.name] as unknown[]).length, 0);
    // Most bodies are small: checked at once, with no promise to wait for.
    if (itemCount <= ITEMS_PER_CLOCK_READ) {
      for (const _ of collect(work, data, errors));
      return settle(validate, errors);
    }
    return (async () => {
      let sliceStarted = performance.now();
      for (const _ of collect(work, data, errors)) {
        if (performance.now() - sliceStarted < SLICE_MS) continue;
        await new Promise((resolve) => setImmediate(resolve));
        sliceStarted = performance.now();
      }
      return settle(validate, errors);
    })();
  };
  return validate;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function settle(validate: BodyValidator, errors: ErrorObject[]): boolean {
  validate.errors = errors.length > 0 ? errors : null;
  return errors.length === 0;
}

/** Each array's items in turn; stops once more items failed than an answer lists. */
function* itemErrors(work: SlicedArray[], body: Record<string, unknown>): Generator<ErrorObject[] | undefined> {
  for (const { name, item, unique } of work) {
    const items = body[name] as unknown[];
    const seen = unique ? new Map<string, number>() : undefined;
    for (let i = 0; i < items.length; i++) {
      const errors: ErrorObject[] = [];
      if (!item(items[i])) errors.push(...(item.errors ?? []).map((e) => within(e, name, i)));
      if (seen) {
        const text = canonicalJson(items[i]);
        const first = seen.get(text);
        if (first === undefined) seen.set(text, i);
        else errors.push(duplicate(name, i, first));
      }
      yield errors.length > 0 ? errors : undefined;
    }
  }
}

/**
 * Collects item errors into `errors` until more items have failed than an answer lists, pausing
 * (yielding) every ITEMS_PER_CLOCK_READ items, where its driver may end a slice.
 */
function* collect(work: SlicedArray[], body: Record<string, unknown>, errors: ErrorObject[]): Generator<void> {
  let failed = 0;
  let checked = 0;
  for (const found of itemErrors(work, body)) {
    if (found) {
      errors.push(...found);
      if (++failed > MAX_FIELD_ERRORS) return;
    }
    if (++checked % ITEMS_PER_CLOCK_READ === 0) yield;
  }
}

/** An item's error as the whole body's: its path and its schema path under the array. */
const within = (error: ErrorObject, name: string, index: number): ErrorObject => ({
  ...error,
  instancePath: `/${pointerSegment(name)}/${index}${error.instancePath}`,
  schemaPath: `#/properties/${pointerSegment(name)}/items${error.schemaPath.slice(1)}`,
});

const duplicate = (name: string, index: number, first: number): ErrorObject => ({
  keyword: 'uniqueItems',
  instancePath: `/${pointerSegment(name)}/${index}`,
  schemaPath: `#/properties/${pointerSegment(name)}/uniqueItems`,
  params: { i: index, j: first },
  message: `repeats item ${first}; each may be given once`,
});
