/**
 * An example value built from a schema, for the requests and responses whose route gives none:
 * each field's own `examples` (or `const`, `default`, first `enum` value) first, then a value of
 * its type and format. The schemas' examples are the source, so an example shown for an operation
 * is made of the same values its fields document.
 */
type Schema = Record<string, unknown>;
type Components = Record<string, Schema>;

/** Deep enough for every answer's nesting (a vendor batch's screening's matches' clearances), short of a recursive schema's cycle. */
const MAX_DEPTH = 24;

export function exampleOf(schema: unknown, components: Components, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH) return undefined;
  const s = schema as Schema;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('example' in s) return s.example;
  if ('const' in s) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (typeof s.$ref === 'string') return exampleOf(components[s.$ref.split('/').pop() as string], components, depth + 1);
  if (Array.isArray(s.allOf)) {
    const parts = s.allOf.map((part) => exampleOf(part, components, depth + 1));
    return parts.every((part) => part && typeof part === 'object' && !Array.isArray(part)) ? Object.assign({}, ...parts) : parts[0];
  }
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = s[key];
    if (Array.isArray(options)) return exampleOf(options.find((o) => (o as Schema).type !== 'null') ?? options[0], components, depth + 1);
  }
  const type = Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') ?? 'null') : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries((s.properties ?? {}) as Record<string, Schema>)
          .map(([name, property]) => [name, exampleOf(property, components, depth + 1)] as const)
          .filter(([, value]) => value !== undefined),
      );
    case 'array': {
      const item = exampleOf(s.items, components, depth + 1);
      return item === undefined || s.maxItems === 0 ? [] : Array.from({ length: Math.max(1, Number(s.minItems ?? 1)) }, () => item);
    }
    case 'string':
      return stringExample(s);
    case 'integer':
      return typeof s.minimum === 'number' ? Math.ceil(s.minimum) : 1;
    case 'number':
      return typeof s.minimum === 'number' ? s.minimum : 0.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

const FORMATS: Record<string, string> = {
  'date-time': '2026-11-20T09:31:12.204Z',
  date: '2026-11-20',
  uri: 'https://hooks.example.com/gatehouse',
  email: 'jane.doe@example.com',
  uuid: '3f1c2b8e-5d4a-4e7b-9c1d-2a6f8e0b7c35',
};

/** An id such as `^scr_[0-9a-z]{26}$`, the shape of every id the service makes (src/ids.ts). */
const PREFIXED_ID = /^\^([a-z]+_)\[0-9a-z\]\{26\}\$$/;

function stringExample(s: Schema): string {
  const format = typeof s.format === 'string' ? FORMATS[s.format] : undefined;
  if (format) return format;
  const id = typeof s.pattern === 'string' ? PREFIXED_ID.exec(s.pattern) : null;
  if (id) return `${id[1]}01jbz4r2c5m7p9r1t3v5x7z9ab`;
  const plain = 'example'.padEnd(Number(s.minLength ?? 1), 'x');
  if (typeof s.pattern !== 'string') return plain;
  // Another pattern: the first of the usual values it accepts (a date, a country code…).
  const pattern = new RegExp(s.pattern, 'u');
  return [plain, ...Object.values(FORMATS), ...COMMON_VALUES].find((value) => pattern.test(value)) ?? plain;
}

const COMMON_VALUES = ['US', 'USA', 'example-1', 'EXAMPLE', '0', '1', 'a'];
