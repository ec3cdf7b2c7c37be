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
