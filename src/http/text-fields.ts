/**
 * The free-text and country fields request bodies share. Text refuses C0 and C1 control
 * characters and the bidi overrides that can make a name display as something else; prose (a
 * reason, a note) may also break lines.
 */
import { Type } from 'typebox';

export const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]*$';

export const text = (maxLength: number, description: string) => Type.String({ minLength: 1, maxLength, pattern: NO_CONTROL, description });

const PROSE_NO_CONTROL = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]*$';

/** Text that may span lines (tabs and line breaks allowed), for reasons and notes. */
export const prose = (maxLength: number, description: string) => Type.String({ minLength: 1, maxLength, pattern: PROSE_NO_CONTROL, description });

export const countryCode = (description: string) =>
  Type.String({ pattern: '^[A-Za-z]{2}$', description: `${description} ISO 3166-1 alpha-2; lower case is accepted.`, examples: ['IR'] });

/** Your own key-value pairs on a record; the 2 KiB total is checked by InputChecker.metadata. */
export const Metadata = Type.Record(
  Type.String({ pattern: '^[A-Za-z0-9_.-]{1,40}$' }),
  Type.Union([Type.String({ maxLength: 500 }), Type.Number(), Type.Boolean(), Type.Null()]),
  {
    maxProperties: 20,
    additionalProperties: false,
    description:
      'Your own key-value pairs, stored with the record and returned as given (at most 20 keys of 1 to 40 letters, digits, `_`, `.` or `-`; values up to 500 characters; 2 KiB in all).',
  },
);

/** One of a fixed set of strings, typed as that set. */
export const enumOf = <const T extends readonly string[]>(values: T, description: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], description });
