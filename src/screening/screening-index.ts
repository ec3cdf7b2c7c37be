/**
 * The screening engine's front door: build an index over list entities once, then screen subjects
 * against it. Pure and synchronous — no I/O — so it runs the same in the service, the evaluation
 * and the benchmarks.
 *
 * For each subject name (and alias): candidate list names from the index, each scored token by
 * token, the best name per entity kept, then qualified by date of birth, country, identifiers,
 * the kind of name matched and the entity's type. Scores are in [0, 1]; DEFAULT_THRESHOLD is the
 * point the evaluation (BENCHMARKS.md) was tuned for. The alert threshold is also where a name that
 * reaches it is held when only its qualifiers disagree (qualifiers.ts); matches may be reported
 * below it, down to `reportFloor`, for the caller's auto-clear band.
 */
import { explain } from './match/explain.ts';
import { DISTINCTIVE_RARITY, type PreparedName, prepareName, scoreNames, type WeightedToken } from './match/name-score.ts';
import { qualify, scoreCeiling } from './match/qualifiers.ts';
import type { ScreeningMatch, ScreeningOptions, SubjectQuery } from './match-types.ts';
import type { ListEntity } from './model.ts';
import { analyzeName } from './normalize/analyze-name.ts';
import { queryVariants } from './normalize/name-variants.ts';
import { type CandidateFilter, type IndexedName, NameIndex } from './index/name-index.ts';

export const DEFAULT_THRESHOLD = 0.8;
const DEFAULT_LIMIT = 10;
/** A match through a bracketed part of a name, or the name without it, is a little less than the whole name matched. */
const PART_FACTOR = 0.95;
const PART_NOTE = `compared without a part in brackets or quotes, or that part alone (name score ×${PART_FACTOR})`;

export interface ScreeningIndex {
  readonly entityCount: number;
  readonly nameCount: number;
  screen(query: SubjectQuery, options?: ScreeningOptions): ScreeningMatch[];
}

export function buildScreeningIndex(entities: readonly ListEntity[]): ScreeningIndex {
  const index = new NameIndex(entities);
  return {
    entityCount: entities.length,
    nameCount: index.names.length,
    screen: (query, options) => screen(index, query, options),
  };
}

/**
 * The query read once as a person's name and once as an organization's, as its kind allows: a
 * person's honorifics are dropped and an organization's legal forms recognized, and each reading
 * is screened only against entities of its own kind.
 */
function readings(query: SubjectQuery): CandidateFilter[] {
  const lists = query.lists && query.lists.length > 0 ? new Set(query.lists) : undefined;
  const out: CandidateFilter[] = [];
  if (query.kind !== 'organization') out.push({ persons: true, lists });
  if (query.kind !== 'person') out.push({ persons: false, lists });
  return out;
}

type Best = { nameScore: number; name: IndexedName; queryName: string; prepared: PreparedName; part: boolean };

const KIND_PREFERENCE = ['primary', 'strong_alias', 'former_name', 'original_script', 'weak_alias'];
/** Between two equally good names of one entity, show the listed name rather than an alias. */
const preferred = (a: IndexedName, b: IndexedName) => KIND_PREFERENCE.indexOf(a.kind) < KIND_PREFERENCE.indexOf(b.kind);

function screen(index: NameIndex, query: SubjectQuery, options: ScreeningOptions = {}): ScreeningMatch[] {
  const given = options.threshold ?? DEFAULT_THRESHOLD;
  const alertThreshold = typeof given === 'number' ? () => given : given;
  const floorOf = (list: string) => Math.min(options.reportFloor ?? Number.POSITIVE_INFINITY, alertThreshold(list));
  const limit = options.limit ?? DEFAULT_LIMIT;
  const bestByEntity = new Map<number, Best>();

  for (const queryName of [query.name, ...(query.aliases ?? [])]) for (const reading of readings(query)) for (const variant of queryVariants(queryName, reading.persons)) {
    const isPerson = reading.persons;
    const tokens: WeightedToken[] = index.weigh(analyzeName(variant.text, isPerson));
    if (tokens.length === 0) continue;
    const prepared = prepareName(tokens, index.vocabulary.keysOf, { orderKnown: !variant.text.includes(','), isPerson, rarityKnown: index.vocabulary.rarityKnown, memo: true });
    for (const nameId of index.candidates(prepared, reading)) {
      const name = index.names[nameId] as IndexedName;
      // A part of a name stands for the whole only where the other name has nothing left over
      // that the part's missing words might have met: "Bank of China (Hong Kong)" without its
      // bracket is not "Bank of China (Singapore)" without its own, nor that name whole.
      if (variant.part && name.part) continue;
      const scored = scoreNames(prepared, name, false);
      if ((variant.part && !scored.listCovered) || (name.part && !scored.queryCovered)) continue;
      // Nor where what it matched is common words ("Factory JSC" left of a quoted name): a part
      // stands for the whole through a distinctive word (where the index can tell).
      if ((variant.part || name.part) && prepared.rarityKnown && scored.rarestFound < DISTINCTIVE_RARITY) continue;
      const nameScore = variant.part || name.part ? scored.score * PART_FACTOR : scored.score;
      const previous = bestByEntity.get(name.entity);
      if (!previous || nameScore > previous.nameScore || (nameScore === previous.nameScore && preferred(name, previous.name))) {
        bestByEntity.set(name.entity, { nameScore, name, queryName, prepared, part: variant.part || name.part });
      }
    }
  }

  const qualified = [];
  const ceiling = scoreCeiling(query);
  for (const best of bestByEntity.values()) {
    const entity = index.entities[best.name.entity] as ListEntity;
    const floor = floorOf(entity.list);
    // Qualifying builds an account in words; skip the names no corroboration could lift to the floor.
    if (best.nameScore === 0 || ceiling(best.nameScore) < floor) continue;
    const listedName = entity.names[best.name.nameIndex] as ListEntity['names'][number];
    const threshold = alertThreshold(entity.list);
    const { score, qualifiers } = qualify(best.nameScore, query, entity, listedName.kind, threshold);
    if (score >= floor) qualified.push({ best, entity, listedName, qualifiers, score: roundedBeside(score, threshold) });
  }
  // Only the matches returned are explained token by token.
  return qualified
    .sort((a, b) => b.score - a.score || a.entity.entryId.localeCompare(b.entity.entryId))
    .slice(0, limit)
    .map(({ best, entity, listedName, qualifiers, score }): ScreeningMatch => ({
      entity,
      score,
      matchedName: listedName,
      queryName: best.queryName,
      explanation: explain(best.queryName, listedName, best.nameScore, scoreNames(best.prepared, best.name), qualifiers, best.part ? [PART_NOTE] : []),
    }));
}

/** Three decimals, never rounded across the alert threshold: what alerts shows at or above it, what does not, below. */
function roundedBeside(score: number, threshold: number): number {
  const rounded = Math.round(score * 1000) / 1000;
  if (score >= threshold && rounded < threshold) return Math.ceil(score * 1000) / 1000;
  if (score < threshold && rounded >= threshold) return Math.floor(score * 1000) / 1000;
  return rounded;
}
