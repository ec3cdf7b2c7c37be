/**
 * A baseline matcher with the engine's interface (`buildScreeningIndex(entities).screen(query)`)
 * that scores names the way watchman documents it: watchman's normalisation (lower case, marks
 * and punctuation dropped, `LAST, First` turned round for people, its short company-suffix list),
 * BestPairsJaroWinkler on every listed name, the best name per entity, times the name-only
 * multiplier 0.95 (watchman caps a name-only search below 1 by design). Qualifiers are ignored:
 * this is the name score watchman gives a name-only query.
 *
 * Two simplifications, both stated in the report: no per-language stop-word removal (it needs
 * watchman's 7,351-word lists), and candidates are the names sharing a 3-letter token prefix with
 * the query; only when there are none does it fall back, as watchman does, to a scan, and then
 * only of the names that share a first-letter class with the query (the others score 0 anyway).
 * Over 100,000 negatives a full scan per query would take hours; the blocking can only lose
 * matches whose every token differs in its first 3 letters while some other name shares one.
 */
import type { ScreeningMatch, ScreeningOptions, SubjectQuery } from '../../../src/screening/match-types.ts';
import type { ListEntity, ListedName } from '../../../src/screening/model.ts';
import { bestPairsJaroWinkler, firstLetterClass } from './watchman-jaro-winkler.ts';

/** watchman's minMatch default is 0 (no filter); its methodology page starts "review" at 0.85. */
export const WATCHMAN_DEFAULT_THRESHOLD = 0.85;
const NAME_ONLY_MULTIPLIER = 0.95;
const COMPANY_SUFFIXES = / (co|d o o|inc|gmbh|llc|l l c|llp|ltd|ltda|sa de cv)$/;
const PREFIX = 3;

export function watchmanTokens(name: string, isPerson: boolean): string[] {
  let text = name;
  const comma = text.indexOf(',');
  if (isPerson && comma > 0 && text.indexOf(',', comma + 1) < 0) text = `${text.slice(comma + 1)} ${text.slice(0, comma)}`;
  text = text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Mn}/gu, '')
    .normalize('NFC')
    .replace(/[.,-]/g, ' ')
    .replace(/[^\p{L}\p{N}\s]/gu, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!isPerson) text = text.replace(COMPANY_SUFFIXES, '').trim();
  return text ? text.split(' ') : [];
}

type IndexedName = { entity: number; name: ListedName; tokens: string[] };

export function buildWatchmanIndex(entities: readonly ListEntity[]) {
  const names: IndexedName[] = [];
  const byPrefix = new Map<string, number[]>();
  const byFirstLetterClass = new Map<string, number[]>();
  const post = (map: Map<string, number[]>, key: string, id: number) => {
    const postings = map.get(key);
    if (postings) postings.push(id);
    else map.set(key, [id]);
  };
  entities.forEach((entity, entityIndex) => {
    for (const name of entity.names) {
      const tokens = watchmanTokens(name.full, entity.type === 'person');
      if (tokens.length === 0) continue;
      const id = names.push({ entity: entityIndex, name, tokens }) - 1;
      for (const key of new Set(tokens.map((t) => t.slice(0, PREFIX)))) post(byPrefix, key, id);
      for (const key of new Set(tokens.map(firstLetterClass))) post(byFirstLetterClass, key, id);
    }
  });

  function screen(query: SubjectQuery, options: ScreeningOptions = {}): ScreeningMatch[] {
    const given = options.threshold ?? WATCHMAN_DEFAULT_THRESHOLD;
    // Watchman has no qualifiers, so nothing to hold: every match is reported down to the floor.
    const floorOf = (list: string) => Math.min(options.reportFloor ?? Number.POSITIVE_INFINITY, typeof given === 'number' ? given : given(list));
    const best = new Map<number, { score: number; name: IndexedName; queryName: string }>();
    for (const queryName of [query.name, ...(query.aliases ?? [])]) {
      const queryTokens = watchmanTokens(queryName, query.kind === 'person');
      const candidates = new Set<number>();
      for (const token of queryTokens) for (const id of byPrefix.get(token.slice(0, PREFIX)) ?? []) candidates.add(id);
      if (candidates.size === 0) for (const token of queryTokens) for (const id of byFirstLetterClass.get(firstLetterClass(token)) ?? []) candidates.add(id);
      for (const id of candidates) {
        const name = names[id] as IndexedName;
        const entity = entities[name.entity] as ListEntity;
        if (!kindAllows(query.kind, entity) || (query.lists && !query.lists.includes(entity.list))) continue;
        const score = bestPairsJaroWinkler(queryTokens, name.tokens) * NAME_ONLY_MULTIPLIER;
        if (score >= floorOf(entity.list) && score > (best.get(name.entity)?.score ?? -1)) best.set(name.entity, { score, name, queryName });
      }
    }
    const matches = [...best.entries()].map(([entityIndex, { score, name, queryName }]) =>
      toMatch(entities[entityIndex] as ListEntity, score, name, queryName),
    );
    matches.sort((a, b) => b.score - a.score);
    return options.limit === undefined ? matches : matches.slice(0, options.limit);
  }

  return { entityCount: entities.length, screen };
}

function kindAllows(kind: SubjectQuery['kind'], entity: ListEntity): boolean {
  if (kind === 'any') return true;
  return kind === 'person' ? entity.type === 'person' : entity.type !== 'person';
}

function toMatch(entity: ListEntity, score: number, name: IndexedName, queryName: string): ScreeningMatch {
  return {
    entity,
    score,
    matchedName: name.name,
    queryName,
    explanation: {
      queryName,
      listName: name.name.full,
      nameKind: name.name.kind,
      nameScore: score / NAME_ONLY_MULTIPLIER,
      tokens: [],
      qualifiers: [],
      summary: 'watchman BestPairsJaroWinkler × name-only multiplier 0.95',
    },
  };
}
