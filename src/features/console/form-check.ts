/**
 * What a console form becomes (an entry, a watchlist) is checked against the schema the API's
 * route validates the same body with, by the service's own validator (schemaProblems in
 * src/http/validation.ts): a form refuses what the API refuses, with the same pointers, and the
 * service receives only bodies the API would pass it. This is how it refuses.
 */
import { AppError, type FieldError } from '../../http/errors.ts';

/** Refuses the form with every problem found, as the API's 400 would. */
export function refuseForm(what: string, errors: readonly FieldError[]): void {
  if (errors.length === 0) return;
  throw new AppError('validation_failed', `The ${what} has ${errors.length === 1 ? 'a problem' : `${errors.length} problems`}: nothing was changed.`, {
    errors: [...errors],
  });
}
