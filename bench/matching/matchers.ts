/**
 * The matchers the evaluation and the benchmark run side by side: our engine
 * (src/screening/screening-index.ts) once it exists, and the watchman baseline. The engine is
 * imported by path at run time so the harness works, on the baseline alone, before it lands.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ScreeningMatch, ScreeningOptions, SubjectKind, SubjectQuery } from '../../src/screening/match-types.ts';
import type { EntityType, ListEntity } from '../../src/screening/model.ts';
import { buildWatchmanIndex, WATCHMAN_DEFAULT_THRESHOLD } from './baselines/watchman-index.ts';

export type ScreeningIndexLike = {
  readonly entityCount: number;
  screen(query: SubjectQuery, options?: ScreeningOptions): ScreeningMatch[];
};

export type Matcher = {
  label: string;
  defaultThreshold: number;
  /** False when dates of birth and countries change nothing: the qualified runs are then skipped. */
  usesQualifiers: boolean;
  buildScreeningIndex(entities: readonly ListEntity[]): ScreeningIndexLike;
};

export const watchmanBaseline: Matcher = {
  label: 'watchman (baseline)',
  defaultThreshold: WATCHMAN_DEFAULT_THRESHOLD,
  usesQualifiers: false,
  buildScreeningIndex: buildWatchmanIndex,
};

const ENGINE_MODULE = new URL('../../src/screening/screening-index.ts', import.meta.url);

/** Our engine, or undefined while src/screening/screening-index.ts does not exist yet. */
export async function loadEngine(): Promise<Matcher | undefined> {
  if (!fs.existsSync(fileURLToPath(ENGINE_MODULE))) return undefined;
  const engine = (await import(ENGINE_MODULE.href)) as {
    DEFAULT_THRESHOLD: number;
    buildScreeningIndex(entities: readonly ListEntity[]): ScreeningIndexLike;
  };
  return { label: 'gatehouse', defaultThreshold: engine.DEFAULT_THRESHOLD, usesQualifiers: true, buildScreeningIndex: engine.buildScreeningIndex };
}

/** `--matchers engine,watchman` → the matchers asked for; the engine is skipped with a note if absent. */
export async function selectMatchers(names: readonly string[]): Promise<Matcher[]> {
  const chosen: Matcher[] = [];
  for (const name of names) {
    if (name === 'watchman') chosen.push(watchmanBaseline);
    else if (name === 'engine') {
      const engine = await loadEngine();
      if (engine) chosen.push(engine);
      else process.stderr.write('note: src/screening/screening-index.ts does not exist yet; running the baseline only\n');
    } else throw new UsageError(`unknown matcher "${name}" (engine, watchman)`);
  }
  return chosen;
}

export class UsageError extends Error {}

/** A list entity with nothing but a name: the other side of a labelled name pair. */
export function entityNamed(name: string, type: EntityType, entryId = name): ListEntity {
  return {
    list: 'EVAL',
    entryId,
    type,
    names: [{ full: name, kind: 'primary' }],
    countries: [],
    unmappedCountries: [],
    datesOfBirth: [],
    placesOfBirth: [],
    nationalities: [],
    identifiers: [],
    programs: [],
    linkedTo: [],
    addresses: [],
  };
}

/** The score a matcher gives one pair of names: an index of one entity, screened at threshold 0. */
export function pairScore(matcher: Matcher, query: string, kind: SubjectKind, listed: ListEntity): number {
  const [best] = matcher.buildScreeningIndex([listed]).screen({ name: query, kind }, { threshold: 0 });
  return best?.score ?? 0;
}
