/**
 * The screening engine's front door: build an index over list entities once, then screen subjects
 * against it. Pure and synchronous — no I/O — so it runs the same in the service, the evaluation
 * and the benchmarks.
 *
 * For each subject name (and alias) and each of its readings (name-variants.ts): candidate list
 * names from the index, each scored token by token, the best name per entity kept, then qualified
 * by date of birth, country, identifiers, the kind of name matched and the entity's type. Entries
 * the subject's distinctive identifiers find (an IMO, passport or tax number) join them whatever
 * their names' scores, and alert. Scores are in [0, 1]; DEFAULT_THRESHOLD is the point the
 * evaluation (BENCHMARKS.md) was tuned for. The alert threshold is also where a name that reaches
 * it is held when only its qualifiers disagree (qualifiers.ts); matches may be reported below it,
 * down to `reportFloor`, for the caller's auto-clear band.
 */

import { IdentifierIndex } from './index/identifier-index.ts';
import { type CandidateFilter, type IndexedName, NameIndex } from './index/name-index.ts';
import type { RarityTable } from './index/vocabulary.ts';
import { explain } from './match/explain.ts';
import { foundByIdentifierSummary, foundByWords, raiseFoundByIdentifier } from './match/identifiers.ts';
import { scoreNames } from './match/name-score.ts';
import { type PreparedName, prepareName, type WeightedToken } from './match/prepared-name.ts';
import { qualify, scoreCeiling } from './match/qualifiers.ts';
import type { ScreeningMatch, ScreeningOptions, SubjectKind, SubjectQuery } from './match-types.ts';
import type { EntityType, ListEntity } from './model.ts';
import { analyzeName } from './normalize/analyze-name.ts';
import { queryVariants } from './normalize/name-variants.ts';
import { finish, type Steps } from './steps.ts';

export const DEFAULT_THRESHOLD = 0.8;
const DEFAULT_LIMIT = 10;
/** A match through a bracketed part of a name, or the name without it, is a little less than the whole name matched. */
const PART_FACTOR = 0.95;
/** A part stands for the whole only through a word this rare on the lists: on at most about 80 of 58,785 names (see name-score.ts). */
const PART_RARITY = 0.6;
const PART_NOTE = `compared without a part in brackets or quotes, or that part alone (name score ×${PART_FACTOR})`;

export interface ScreeningIndex {
  readonly entityCount: number;
  readonly nameCount: number;
  screen(query: SubjectQuery, options?: ScreeningOptions): ScreeningMatch[];
  /** How rare each word is on these names: for a small index to weigh its words as this one does (IndexOptions). */
  rarity(): RarityTable;
}

export type IndexOptions = {
  /**
   * Weigh words by this table (another index's `rarity()`) instead of by these entities' own
   * names: a few entries cannot say which words are common, and two indexes weighing alike score
   * a name alike.
   */
  rarity?: RarityTable;
};

export function buildScreeningIndex(entities: readonly ListEntity[], options: IndexOptions = {}): ScreeningIndex {
  return finish(screeningIndexSteps(entities, options));
}

/** The same build in steps, for a caller that must keep other work going meanwhile (see steps.ts). */
export function* screeningIndexSteps(entities: readonly ListEntity[], options: IndexOptions = {}): Steps<ScreeningIndex> {
  const index = yield* NameIndex.inSteps(entities, options.rarity);
  const identifiers = yield* IdentifierIndex.inSteps(entities, index.names);
  let rarity: RarityTable | undefined;
  return {
    entityCount: entities.length,
    nameCount: index.names.length,
    screen: (query, screenOptions) => screen(index, identifiers, query, screenOptions),
    rarity: () => (rarity ??= index.vocabulary.rarityTable()),
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
  if (query.kind === 'person' || query.kind === 'any') out.push({ persons: true, lists });
  if (query.kind !== 'person') out.push({ persons: false, lists });
  return out;
}

/** The entity types a subject of this kind is screened against: an organization's reading also meets vessels and aircraft. */
const fitsKind = (kind: SubjectKind, type: EntityType) =>
  kind === 'any' || (kind === 'person' ? type === 'person' : kind === 'vessel' ? type === 'vessel' : type !== 'person');

/** `part`: matched through a part of a name (see name-variants.ts), at PART_FACTOR. */
type Best = { nameScore: number; name: IndexedName; queryName: string; prepared: PreparedName; part: boolean };

const KIND_PREFERENCE = ['primary', 'strong_alias', 'former_name', 'original_script', 'weak_alias'];
/** Between two equally good names of one entity, show the listed name rather than an alias. */
const preferred = (a: IndexedName, b: IndexedName) => KIND_PREFERENCE.indexOf(a.kind) < KIND_PREFERENCE.indexOf(b.kind);

function screen(index: NameIndex, identifierIndex: IdentifierIndex, query: SubjectQuery, options: ScreeningOptions = {}): ScreeningMatch[] {
  const given = options.threshold ?? DEFAULT_THRESHOLD;
  const alertThreshold = typeof given === 'number' ? () => given : given;
  const floorOf = (list: string) => Math.min(options.reportFloor ?? Number.POSITIVE_INFINITY, alertThreshold(list));
  const limit = options.limit ?? DEFAULT_LIMIT;
  const accept = options.accept ?? (() => true);
  const bestByEntity = new Map<number, Best>();
  const keep = (name: IndexedName, nameScore: number, queryName: string, prepared: PreparedName, part: boolean) => {
    const previous = bestByEntity.get(name.entity);
    if (!previous || nameScore > previous.nameScore || (nameScore === previous.nameScore && preferred(name, previous.name))) {
      bestByEntity.set(name.entity, { nameScore, name, queryName, prepared, part });
    }
  };

  const prepared: { queryName: string; isPerson: boolean; prepared: PreparedName }[] = [];
  for (const queryName of [query.name, ...(query.aliases ?? [])])
    for (const reading of readings(query))
      for (const variant of queryVariants(queryName, reading.persons)) {
        const isPerson = reading.persons;
        const tokens: WeightedToken[] = index.weigh(analyzeName(variant.text, isPerson));
        if (tokens.length === 0) continue;
        const name = prepareName(tokens, index.vocabulary.keysOf, {
          orderKnown: !variant.text.includes(','),
          isPerson,
          rarityKnown: index.vocabulary.rarityKnown,
          memo: true,
        });
        if (!variant.part) prepared.push({ queryName, isPerson, prepared: name });
        for (const nameId of index.candidates(name, reading)) {
          const listName = index.names[nameId] as IndexedName;
          // The readings keep persons and the rest apart; only a vessel narrows the rest further.
          if (query.kind === 'vessel' && (index.entities[listName.entity] as ListEntity).type !== 'vessel') continue;
          // A part of a name stands for the whole only where the other name has nothing left over
          // that the part's missing words might have met: "Bank of China (Hong Kong)" without its
          // bracket is not "Bank of China (Singapore)" without its own, nor that name whole.
          const part = variant.part || listName.part;
          if (variant.part && listName.part) continue;
          const scored = scoreNames(name, listName, false);
          if ((variant.part && !scored.listCovered) || (listName.part && !scored.queryCovered)) continue;
          // Nor where what it matched is common words ("Factory JSC" left of a quoted name): a part
          // stands for the whole through a distinctive word (where the index can tell).
          if (part && name.rarityKnown && scored.rarestFound < PART_RARITY) continue;
          keep(listName, part ? scored.score * PART_FACTOR : scored.score, queryName, name, part);
        }
      }

  // Entries a distinctive identifier finds, with their names scored against the subject's however far apart.
  const lists = query.lists && query.lists.length > 0 ? new Set<string>(query.lists) : undefined;
  const found = identifierIndex.find(query.identifiers, (entity) => fitsKind(query.kind, entity.type) && (!lists || lists.has(entity.list)) && accept(entity));
  for (const entity of found.keys()) {
    if (bestByEntity.has(entity)) continue;
    const isPerson = (index.entities[entity] as ListEntity).type === 'person';
    const readingsOfKind = prepared.filter((p) => p.isPerson === isPerson);
    // A name with nothing left to compare (an honorific alone) still shows the entry, at name score 0.
    if (readingsOfKind.length === 0)
      readingsOfKind.push({ queryName: query.name, isPerson, prepared: prepareName([], index.vocabulary.keysOf, { orderKnown: true, isPerson }) });
    const nameIds = identifierIndex.namesOf(entity);
    for (let n = 0; n < nameIds.length; n++) {
      const listName = index.names[nameIds[n] as number] as IndexedName;
      if (listName.part) continue;
      for (const p of readingsOfKind) keep(listName, scoreNames(p.prepared, listName, false).score, p.queryName, p.prepared, false);
    }
  }

  const qualified = [];
  // An identifier lifts only the entries that list its value: the others' ceiling is the name's and the other facts'.
  const corroborable = identifierIndex.withEqualValue(query.identifiers);
  const ceilingWith = scoreCeiling(query);
  const ceilingWithout = query.identifiers?.length ? scoreCeiling({ ...query, identifiers: [] }) : ceilingWith;
  for (const best of bestByEntity.values()) {
    const hits = found.get(best.name.entity);
    const entity = index.entities[best.name.entity] as ListEntity;
    if (!accept(entity)) continue;
    const floor = floorOf(entity.list);
    const ceiling = corroborable.has(best.name.entity) ? ceilingWith : ceilingWithout;
    // Qualifying builds an account in words; skip the names no corroboration could lift to the floor.
    if (!hits && (best.nameScore === 0 || ceiling(best.nameScore) < floor)) continue;
    const listedName = entity.names[best.name.nameIndex] as ListEntity['names'][number];
    const threshold = alertThreshold(entity.list);
    const byName = qualify(best.nameScore, query, entity, listedName.kind, threshold);
    const { score, qualifiers } = hits ? raiseFoundByIdentifier(byName) : byName;
    if (score >= floor) qualified.push({ best, entity, listedName, qualifiers, score: roundedBeside(score, threshold), hits });
  }
  // Only the matches returned are explained token by token.
  return qualified
    .sort((a, b) => b.score - a.score || a.entity.entryId.localeCompare(b.entity.entryId))
    .slice(0, limit)
    .map(({ best, entity, listedName, qualifiers, score, hits }): ScreeningMatch => {
      const explanation = explain(best.queryName, listedName, best.nameScore, scoreNames(best.prepared, best.name), qualifiers, best.part ? [PART_NOTE] : []);
      // Found by the identifier where the name alone is no match (whatever threshold the caller asked down to).
      const byIdentifier = hits && best.nameScore < DEFAULT_THRESHOLD;
      return {
        entity,
        score,
        matchedName: listedName,
        queryName: best.queryName,
        explanation: byIdentifier
          ? { ...explanation, summary: foundByIdentifierSummary(hits, explanation.summary), foundByIdentifier: foundByWords(hits) }
          : explanation,
      };
    });
}

/** Three decimals, never rounded across the alert threshold: what alerts shows at or above it, what does not, below. */
function roundedBeside(score: number, threshold: number): number {
  const rounded = Math.round(score * 1000) / 1000;
  if (score >= threshold && rounded < threshold) return Math.ceil(score * 1000) / 1000;
  if (score < threshold && rounded >= threshold) return Math.floor(score * 1000) / 1000;
  return rounded;
}
