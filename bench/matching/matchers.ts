/**
 * The matchers the evaluation and the benchmark run side by side: our engine
 * (src/screening/screening-index.ts) and the watchman baseline, behind one small interface.
 */
import type { ScreeningMatch, ScreeningOptions, SubjectKind, SubjectQuery } from '../../src/screening/match-types.ts';
import { type EntityType, emptyEntity, type ListEntity } from '../../src/screening/model.ts';
import { buildScreeningIndex, DEFAULT_THRESHOLD } from '../../src/screening/screening-index.ts';
import { buildWatchmanIndex, WATCHMAN_DEFAULT_THRESHOLD } from './baselines/watchman-index.ts';
import { UsageError } from './eval-data.ts';

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

export const engine: Matcher = {
  label: 'gatehouse',
  defaultThreshold: DEFAULT_THRESHOLD,
  usesQualifiers: true,
  buildScreeningIndex,
};

const MATCHERS: Record<string, Matcher> = { engine, watchman: watchmanBaseline };

/** `--matchers engine,watchman` → the matchers asked for. */
export function selectMatchers(names: readonly string[]): Matcher[] {
  return names.map((name) => {
    const matcher = MATCHERS[name];
    if (!matcher) throw new UsageError(`unknown matcher "${name}" (${Object.keys(MATCHERS).join(', ')})`);
    return matcher;
  });
}

/** A list entity with nothing but a name: the other side of a labelled name pair. */
export function entityNamed(name: string, type: EntityType, entryId = name): ListEntity {
  return emptyEntity({ list: 'EVAL', entryId, type, names: [{ full: name, kind: 'primary' }] });
}

/** The score a matcher gives one pair of names: an index of one entity, screened at threshold 0. */
export function pairScore(matcher: Matcher, query: string, kind: SubjectKind, listed: ListEntity): number {
  const [best] = matcher.buildScreeningIndex([listed]).screen({ name: query, kind }, { threshold: 0 });
  return best?.score ?? 0;
}
