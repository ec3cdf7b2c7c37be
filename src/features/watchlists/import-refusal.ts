/**
 * An import refused whole: every problem found, each with its pointer (and, in a CSV file, its
 * row and column), as one 400 `validation_failed`. A file of thousands of bad rows is answered
 * with the first hundred problems and `errors_truncated`, as a body that fails its schema is.
 */
import { AppError, type FieldError, MAX_FIELD_ERRORS } from '../../http/errors.ts';

/** How many problems the answer's `detail` line spells out; `errors` lists up to MAX_FIELD_ERRORS. */
const NAMED_IN_DETAIL = 10;

/** How a problem reads in the detail line: by default its pointer and detail; a CSV problem's detail already says where it is. */
const byPointer = (error: FieldError) => `${error.pointer || '(the body)'} ${error.detail}`;

export function refuseImport(what: string, errors: readonly FieldError[], describe: (error: FieldError) => string = byPointer): never {
  const listed = errors.slice(0, MAX_FIELD_ERRORS).map((error) => ({ in: 'body' as const, ...error }));
  const named = listed.slice(0, NAMED_IN_DETAIL).map(describe);
  const more =
    errors.length > named.length
      ? ` (and ${errors.length - named.length} more${errors.length > listed.length ? `; the first ${listed.length} are listed` : ''})`
      : '';
  const count = errors.length === 1 ? 'a problem' : `${errors.length} problems`;
  throw new AppError('validation_failed', `The ${what} has ${count}: ${named.join('; ')}${more}. Nothing was changed.`, {
    errors: listed,
    ...(errors.length > listed.length && { errors_truncated: true }),
  });
}
