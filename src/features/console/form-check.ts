/**
 * What a console form becomes (an entry, a watchlist) checked against the schema the API's route
 * validates the same body with, by the service's own validator: a form refuses what the API
 * refuses, with the same pointers, and the service receives only bodies the API would pass it.
 */
import type { TSchema } from 'typebox';
import { AppError, type FieldError } from '../../http/errors.ts';
import { buildValidatorCompiler, toFieldErrors } from '../../http/validation.ts';

type Validate = ((data: unknown) => boolean | Promise<boolean>) & { errors?: Parameters<typeof toFieldErrors>[0] | null };

const validators = new WeakMap<TSchema, Validate>();
const compile = buildValidatorCompiler();

/** The body's problems with the schema, each with its pointer (none: it passes). */
export async function schemaProblems(schema: TSchema, body: unknown): Promise<FieldError[]> {
  let validate = validators.get(schema);
  if (!validate) {
    validate = compile({ schema, httpPart: 'body', method: 'POST', url: '/console' } as never) as Validate;
    validators.set(schema, validate);
  }
  return (await validate(body)) ? [] : toFieldErrors(validate.errors ?? [], 'body').errors;
}

/** Refuses the form with every problem found, as the API's 400 would. */
export function refuseForm(what: string, errors: readonly FieldError[]): void {
  if (errors.length === 0) return;
  throw new AppError('validation_failed', `The ${what} has ${errors.length === 1 ? 'a problem' : `${errors.length} problems`}: nothing was changed.`, {
    errors: [...errors],
  });
}
