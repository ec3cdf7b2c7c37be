/**
 * Typed reads of environment variables for src/config.ts and the modules that own a section of
 * the configuration: every problem is collected, so a misconfigured service names them all at once.
 */
export type Env = Record<string, string | undefined>;

/** Reads typed values from the environment, collecting every problem instead of stopping at the first. */
export class EnvReader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  optionalString(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.optionalString(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.optionalString(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    this.problems.push(`${name} must be true or false (got "${raw}")`);
    return fallback;
  }

  /** A duration in seconds: `90`, `90s`, `15m`, `1h` or `2d`. */
  durationSeconds(name: string, fallback: number, min: number, max: number): number {
    const raw = this.optionalString(name);
    if (raw === undefined) return fallback;
    const seconds = parseDurationSeconds(raw);
    if (seconds === undefined || seconds < min || seconds > max) {
      this.problems.push(`${name} must be a duration from ${min}s to ${max}s, written like 90s, 15m, 1h or 2d (got "${raw}")`);
      return fallback;
    }
    return seconds;
  }

  /** A problem found by a section's own checks. */
  problem(message: string): void {
    this.problems.push(message);
  }

  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
    const raw = this.optionalString(name);
    if (raw === undefined) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
    return fallback;
  }
}

const UNIT_SECONDS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3_600, d: 86_400 };

/** Seconds in `90`, `90s`, `15m`, `1h` or `2d`; undefined for anything else. */
export function parseDurationSeconds(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([smhd]?)$/i.exec(text.trim());
  return m ? Math.round(Number(m[1]) * (UNIT_SECONDS[(m[2] as string).toLowerCase()] as number)) : undefined;
}
