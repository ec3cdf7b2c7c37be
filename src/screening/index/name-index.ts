/**
 * The in-memory index over every list name, and candidate generation: which list names could be
 * the query's, found through exact tokens, phonetic codes, consonant skeletons, symmetric-delete
 * typo keys and joined word pairs — never by scanning every name. Each candidate is ranked by the
 * rarity-weighted evidence its tokens share with the query; only the best few are scored in full.
 */
import type { ListEntity, NameKind } from '../model.ts';
import { analyzeName } from '../normalize/analyze-name.ts';
import { isHangul, koreanSpellings } from '../normalize/korean-romanization.ts';
import { otherForms } from '../normalize/nicknames.ts';
import { tokenSimilarity, type TokenKeys } from '../match/token-similarity.ts';
import { joinable, joinText, prepareName, type PreparedName, type WeightedToken } from '../match/name-score.ts';
import { EvidenceScratch } from './evidence-scratch.ts';
import { deletions, TYPO_LOOKUP_MIN_LENGTH, type VocabEntry, Vocabulary } from './vocabulary.ts';

export type IndexedName = { entity: number; nameIndex: number; kind: NameKind; tokens: WeightedToken[]; prepared?: PreparedName };

/** How many list names go on to full scoring per query name. */
const CANDIDATES_PER_QUERY_NAME = 64;
const MIN_KEY_SIMILARITY = 0.7;
const MIN_EVIDENCE_SHARE = 0.3;
const PREFIX_LOOKUP_MIN_LENGTH = 7;
const SIMILAR_CACHE_LIMIT = 50_000;

const push = <K, V>(map: Map<K, V[]>, key: K, value: V) => {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
};

export class NameIndex {
  readonly vocabulary = new Vocabulary();
  readonly names: IndexedName[] = [];
  private readonly postings: number[][] = [];
  private readonly phonetic = new Map<string, number[]>();
  /** Consonant skeletons, kept apart by script: only an abjad word and a written-vowel word are compared by skeleton. */
  private readonly skeletons = { abjad: new Map<string, number[]>(), vowelled: new Map<string, number[]>() };
  private readonly deletes = new Map<string, number[]>();
  private readonly joinedPairs = new Map<string, number[]>();
  /** Long words by their first three letters: two typos apart is beyond one deletion a side. */
  private readonly prefixes = new Map<string, number[]>();
  /** Each name's total token weight, to prefer the tighter of two equally good candidates. */
  private nameWeight = new Float64Array(0);

  constructor(readonly entities: readonly ListEntity[]) {
    const tokenIdsOfName: number[][] = [];
    const entityNames: string[] = [];
    entities.forEach((entity, e) => {
      entity.names.forEach((name, n) => {
        const tokens = analyzeName(name.full, entity.type === 'person');
        if (tokens.length === 0) return;
        const ids = tokens.map((t) => this.vocabulary.intern(t).id);
        this.vocabulary.countName(new Set(ids));
        tokenIdsOfName.push(ids);
        entityNames.push(name.full);
        this.names.push({ entity: e, nameIndex: n, kind: name.kind, tokens: tokens.map((t) => ({ ...t, phonetic: [], skeleton: '', weight: 0 })) });
      });
    });
    this.finish(tokenIdsOfName, entityNames);
  }

  private finish(tokenIdsOfName: number[][], entityNames: string[]) {
    const { entries } = this.vocabulary;
    for (const entry of entries) {
      this.postings.push([]);
      if (entry.role !== 'name' && entry.role !== 'patronymic') continue;
      for (const code of entry.phonetic) push(this.phonetic, code, entry.id);
      if (entry.skeleton.length >= 3) push(entry.script === 'abjad' ? this.skeletons.abjad : this.skeletons.vowelled, entry.skeleton, entry.id);
      if (entry.text.length >= PREFIX_LOOKUP_MIN_LENGTH - 2 && entry.script === 'latin') push(this.prefixes, entry.text.slice(0, 3), entry.id);
      if (entry.text.length >= TYPO_LOOKUP_MIN_LENGTH && entry.script !== 'abjad') {
        push(this.deletes, entry.text, entry.id);
        for (const key of deletions(entry.text)) push(this.deletes, key, entry.id);
      }
    }
    this.vocabulary.weighAll();
    this.nameWeight = new Float64Array(this.names.length);
    this.names.forEach((name, nameId) => {
      const ids = tokenIdsOfName[nameId] as number[];
      name.tokens = ids.map((id, i) => {
        const entry = entries[id] as VocabEntry;
        const shown = (name.tokens[i] as WeightedToken).shown;
        // Most occurrences show their token's text and share its entry; a legal form shows its own spelling.
        return shown === entry.shown ? entry : Object.assign(Object.create(entry) as VocabEntry, { shown });
      });
      const isPerson = (this.entities[name.entity] as ListEntity).type === 'person';
      name.prepared = prepareName(name.tokens, this.vocabulary.keysOf, { orderKnown: !entityNames[nameId]?.includes(','), isPerson });
      this.nameWeight[nameId] = name.tokens.reduce((sum, t) => sum + t.weight, 0);
      for (const id of new Set(ids)) (this.postings[id] as number[]).push(nameId);
      for (let i = 0; i + 1 < ids.length; i++) {
        const a = name.tokens[i] as WeightedToken;
        const b = name.tokens[i + 1] as WeightedToken;
        if (joinable(a) && joinable(b) && a.role !== 'legal_form') push(this.joinedPairs, joinText(a) + joinText(b), nameId);
      }
    });
  }

  /** Query tokens weighted by the same rarity table as the list's. */
  weigh(tokens: readonly Omit<WeightedToken, 'weight' | 'phonetic' | 'skeleton'>[]): WeightedToken[] {
    return tokens.map((t) => ({ ...this.vocabulary.keysOf(t.text, t), shown: t.shown, weight: this.vocabulary.weightOf(t) }));
  }

  /**
   * List names sharing enough with the query to be worth scoring, best evidence first. Evidence is
   * the rarity-weighted similarity of the query's words found in the name; a name whose evidence
   * covers less than MIN_EVIDENCE_SHARE of the query's weight cannot reach a useful score.
   */
  candidates(query: readonly WeightedToken[], accept: (entity: ListEntity) => boolean): number[] {
    const scratch = this.scratch();
    const searchable = query.filter((t) => t.role === 'name' || t.role === 'number' || t.role === 'patronymic');
    const tokens = searchable.length > 0 ? searchable : query;
    for (const token of tokens) {
      scratch.nextToken();
      this.similarVocabulary(token).forEach((similarity, vocabId) => scratch.credit(this.postings[vocabId] as number[], similarity * token.weight));
      const joinedHere = this.joinedPairs.get(token.text);
      if (joinedHere) scratch.credit(joinedHere, token.weight);
      scratch.commitToken();
    }
    // Two query words the list writes as one (Abdul Rahman → ABDULRAHMAN, عبد الله → Abdullah).
    for (let i = 0; i + 1 < query.length; i++) {
      const [first, second] = [query[i] as WeightedToken, query[i + 1] as WeightedToken];
      if (!joinable(first) || !joinable(second)) continue;
      const keys = this.vocabulary.keysOf(joinText(first) + joinText(second), { script: second.script, role: 'name' }, true);
      const joined: WeightedToken = { ...keys, shown: `${first.shown} ${second.shown}`, weight: first.weight + second.weight };
      // A list word one of the pair already found (cho → chol) is not credited again for the pair.
      const [firstFound, secondFound] = [this.similarVocabulary(first), this.similarVocabulary(second)];
      scratch.nextToken();
      this.similarVocabulary(joined).forEach((similarity, vocabId) => {
        if (!firstFound.has(vocabId) && !secondFound.has(vocabId)) scratch.credit(this.postings[vocabId] as number[], similarity * joined.weight);
      });
      scratch.commitToken();
    }
    const total = tokens.reduce((sum, t) => sum + t.weight, 0);
    const accepted = (nameId: number) => accept(this.entities[(this.names[nameId] as IndexedName).entity] as ListEntity);
    return scratch.best(CANDIDATES_PER_QUERY_NAME, MIN_EVIDENCE_SHARE * total, this.nameWeight, accepted);
  }

  private scratchSpace?: EvidenceScratch;
  private scratch(): EvidenceScratch {
    this.scratchSpace ??= new EvidenceScratch(this.names.length);
    this.scratchSpace.reset();
    return this.scratchSpace;
  }

  /**
   * Vocabulary entries close to a query token, with their similarity. Remembered per word (most
   * queries share words like "trading" or "mohammed"), up to SIMILAR_CACHE_LIMIT words.
   */
  private similarVocabulary(token: WeightedToken): Map<number, number> {
    const key = `${token.role}|${token.script}|${token.glyph ?? ''}|${token.text}`;
    const cached = this.similarCache.get(key);
    if (cached) return cached;
    const found = this.lookUpSimilar(token);
    if (this.similarCache.size >= SIMILAR_CACHE_LIMIT) this.similarCache.clear();
    this.similarCache.set(key, found);
    return found;
  }

  private readonly similarCache = new Map<string, Map<number, number>>();

  private lookUpSimilar(token: WeightedToken): Map<number, number> {
    const found = new Map<number, number>();
    const consider = (ids: readonly number[] | undefined) => {
      for (const id of ids ?? []) {
        if (found.has(id)) continue;
        const { similarity } = tokenSimilarity(token, this.vocabulary.entries[id] as TokenKeys);
        if (similarity >= MIN_KEY_SIMILARITY) found.set(id, similarity);
      }
    };
    consider(this.vocabulary.byText(token.text));
    if (token.role !== 'name' && token.role !== 'patronymic') return found;
    for (const code of token.phonetic) consider(this.phonetic.get(code));
    for (const form of otherForms(token.text)) consider(this.vocabulary.byText(form));
    if (isHangul(token.glyph)) for (const spelling of koreanSpellings(token.text)) consider(this.vocabulary.byText(spelling));
    if (token.skeleton.length >= 3) consider((token.script === 'abjad' ? this.skeletons.vowelled : this.skeletons.abjad).get(token.skeleton));
    if (token.text.length >= TYPO_LOOKUP_MIN_LENGTH - 1 && token.script !== 'abjad') {
      consider(this.deletes.get(token.text));
      for (const key of deletions(token.text)) consider(this.deletes.get(key));
    }
    if (token.text.length >= PREFIX_LOOKUP_MIN_LENGTH) {
      const sameStart = this.prefixes.get(token.text.slice(0, 3)) ?? [];
      consider(sameStart.filter((id) => Math.abs((this.vocabulary.entries[id] as TokenKeys).text.length - token.text.length) <= 2));
    }
    return found;
  }
}
