/**
 * The checks a JSON schema cannot make, with every refusal naming its field: text trimmed and
 * never empty, names with something to screen, country codes that exist, dates that exist and are
 * not in the future, list codes that are loaded, metadata within its size. Shared by every
 * feature that takes people, organizations or places in its body.
 */
import { CountryInputError, isoCountryCode } from '../screening/country-sanctions/lookup.ts';
import { foldWords } from '../screening/normalize/fold.ts';
import { AppError, type FieldError } from './errors.ts';

export const METADATA_MAX_BYTES = 2048;

/** False for a string with an unpaired surrogate, which no database column can store. */
const wellFormed = (value: string) => Buffer.from(value, 'utf8').toString('utf8') === value;

/** Collects field problems while cleaning a request, then refuses them all at once. */
export class InputChecker {
  readonly errors: FieldError[] = [];

  text(value: string | undefined, pointer: string): string | undefined {
    if (value === undefined) return undefined;
    if (!wellFormed(value)) {
      this.errors.push({ pointer, detail: 'is not valid Unicode (an unpaired surrogate)' });
      return undefined;
    }
    const trimmed = value.trim().replace(/\s+/g, ' ');
    if (trimmed === '') this.errors.push({ pointer, detail: 'must not be blank' });
    return trimmed || undefined;
  }

  /** A name to screen: text with at least one letter or digit, or nothing could be matched and the answer would be a false clear. */
  name(value: string | undefined, pointer: string): string | undefined {
    const name = this.text(value, pointer);
    if (name !== undefined && foldWords(name).length === 0) this.errors.push({ pointer, detail: 'has no letters or digits to screen' });
    return name;
  }

  country(value: string | undefined, pointer: string): string | undefined {
    if (value === undefined) return undefined;
    try {
      return isoCountryCode(value);
    } catch (error) {
      if (!(error instanceof CountryInputError)) throw error;
      this.errors.push({ pointer, detail: error.message });
      return undefined;
    }
  }

  date(value: string | undefined, pointer: string, now: Date): string | undefined {
    if (value === undefined) return undefined;
    const [year, month = 1, day = 1] = value.split('-').map(Number) as [number, number?, number?];
    const date = new Date(Date.UTC(year, month - 1, day));
    const exists = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
    if (!exists || year < 1900) this.errors.push({ pointer, detail: `${value} is not a date (YYYY, YYYY-MM or YYYY-MM-DD, from 1900)` });
    else if (date > now) this.errors.push({ pointer, detail: `${value} is in the future` });
    return value;
  }

  lists(value: string[] | undefined, pointer: string, loaded: readonly string[]): string[] | undefined {
    if (value === undefined) return undefined;
    const codes = value.map((code) => code.toUpperCase());
    codes.forEach((code, i) => {
      if (!loaded.includes(code)) this.errors.push({ pointer: `${pointer}/${i}`, detail: `${code} is not a loaded list; loaded: ${loaded.join(', ')}` });
    });
    return [...new Set(codes)];
  }

  metadata(value: Record<string, unknown> | undefined, pointer: string): Record<string, unknown> | undefined {
    if (value === undefined) return undefined;
    for (const [key, entry] of Object.entries(value)) {
      if (!wellFormed(key) || (typeof entry === 'string' && !wellFormed(entry)))
        this.errors.push({ pointer: `${pointer}/${key}`, detail: 'is not valid Unicode (an unpaired surrogate)' });
    }
    const bytes = Buffer.byteLength(JSON.stringify(value));
    if (bytes > METADATA_MAX_BYTES) this.errors.push({ pointer, detail: `is ${bytes} bytes; at most ${METADATA_MAX_BYTES}` });
    return value;
  }

  refuseIfAny(what: string): void {
    if (this.errors.length === 0) return;
    const count = this.errors.length === 1 ? 'a problem' : `${this.errors.length} problems`;
    throw new AppError('validation_failed', `The ${what} has ${count}: ${this.errors.map((e) => `${e.pointer} ${e.detail}`).join('; ')}.`, {
      errors: this.errors.map((e) => ({ ...e, in: 'body' as const })),
    });
  }
}

/** `{ [key]: value }` when there is a value, `{}` otherwise: for spreading optional fields into an object. */
export const optional = <K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } =>
  value === undefined ? {} : ({ [key]: value } as { [P in K]: V });
