/**
 * The in-memory index over every list name, and candidate generation: which list names could be
 * the query's, found through exact tokens, phonetic codes, consonant skeletons, symmetric-delete
 * typo keys and joined word pairs — never by scanning every name. Each candidate is ranked by the
 * rarity-weighted evidence its tokens share with the query; only the best few are scored in full.
 */

import {
  joinable,
  joinText,
  type PreparedName,
  prepareName,
  unitCount,
  unitFrom,
  unitKeys,
  unitTo,
  type WeightedToken,
  weightedToken,
} from '../match/prepared-name.ts';
import { type TokenKeys, tokenSimilarity } from '../match/token-similarity.ts';
import type { ListEntity, NameKind } from '../model.ts';
import { analyzeName } from '../normalize/analyze-name.ts';
import { isHangul, koreanSpellings } from '../normalize/korean-romanization.ts';
import { nameVariants } from '../normalize/name-variants.ts';
import { GIVEN_NAMES } from '../normalize/nicknames.ts';
import { TRADE_WORDS, wordStem } from '../normalize/org-word-forms.ts';
import { finish, type Steps } from '../steps.ts';
import { EvidenceScratch } from './evidence-scratch.ts';
import { type HashedPostings, HashedPostingsBuilder } from './hashed-postings.ts';
import { deletions, type RarityTable, TYPO_LOOKUP_MIN_LENGTH, type VocabEntry, Vocabulary } from './vocabulary.ts';

/** Vocabulary ids close to a word and their similarity, in pairs: [id, similarity, id, similarity, …]. */
type SimilarWords = readonly number[];
const hasWord = (words: SimilarWords, vocabId: number) => {
  for (let i = 0; i < words.length; i += 2) if (words[i] === vocabId) return true;
  return false;
};

/** Which names a reading may match: persons' or everything else's, from these lists or any. */
export type CandidateFilter = { persons: boolean; lists: ReadonlySet<string> | undefined };

/** A list name: which entity and which of its names (`part`: a bracketed part of it, see name-variants.ts), prepared for scoring. */
export type IndexedName = PreparedName & { entity: number; nameIndex: number; kind: NameKind; part: boolean };

/** How many list names go on to full scoring per query name. */
const CANDIDATES_PER_QUERY_NAME = 64;
const MIN_KEY_SIMILARITY = 0.7;
const MIN_EVIDENCE_SHARE = 0.3;
const PREFIX_LOOKUP_MIN_LENGTH = 7;
const SIMILAR_CACHE_LIMIT = 50_000;

/** The key of a long word under its first three letters and a length. */
const prefixKey = (text: string, length: number) => `${text.slice(0, 3)}${length}`;

/** Words or names between two pauses of a build in steps (and one entity): well under a millisecond of work. */
const STEP = 32;
/** What the constructor is given by `inSteps`, which does the work itself. */
const IN_STEPS: unique symbol = Symbol('in steps');

/** A list name as read, before the vocabulary's weights exist. */
type ReadName = { entity: number; nameIndex: number; kind: NameKind; part: boolean; ids: number[]; shown: string[]; orderKnown: boolean };

export class NameIndex {
  readonly vocabulary: Vocabulary;
  readonly names: IndexedName[] = [];
  /** The names each vocabulary word is on: ids postingIds[postingStart[w]] … up to postingStart[w + 1]. */
  private postingStart = new Uint32Array(1);
  private postingIds = new Uint32Array(0);
  // Set by build(), which the constructor runs (or inSteps drives).
  private phonetic!: HashedPostings;
  /** Consonant skeletons, kept apart by script: only an abjad word and a written-vowel word are compared by skeleton. */
  private skeletons!: { abjad: HashedPostings; vowelled: HashedPostings };
  private deletes!: HashedPostings;
  /** List names by the word two of their adjacent words make together (or three around a particle). */
  private joinedPairs!: HashedPostings;
  /**
   * Long words by their first three letters and their length: two typos apart is beyond one
   * deletion a side. Keyed by length too, so a look-up reads only words within two letters of the
   * query's, not every word with a common start (abd…, moh…).
   */
  private prefixes!: HashedPostings;
  /** Latin words by their stem, for a trade word's derived forms (Trade, Trading; see org-word-forms.ts). */
  private stems!: HashedPostings;
  /** Each name's total token weight, to prefer the tighter of two equally good candidates. */
  private nameWeight = new Float64Array(0);
  /**
   * What a reading filters candidates on, per name, so the filter reads two typed arrays instead
   * of entities of a dozen shapes: 1 for a person's name, and the place of its list in `listCodes`.
   */
  private namePerson = new Uint8Array(0);
  private nameList = new Uint16Array(0);
  private readonly listCodes: string[] = [];
  private readonly listPlaces = new Map<string, number>();

  /** `rarity`: weigh words by that table rather than by these entities' names (vocabulary.ts). */
  constructor(
    readonly entities: readonly ListEntity[],
    inSteps?: typeof IN_STEPS,
    rarity?: RarityTable,
  ) {
    this.vocabulary = new Vocabulary(rarity);
    if (inSteps !== IN_STEPS) finish(this.build());
  }

  /** The same index, built in steps that pause every few entities, names or words (see ../steps.ts). */
  static *inSteps(entities: readonly ListEntity[], rarity?: RarityTable): Steps<NameIndex> {
    const index = new NameIndex(entities, IN_STEPS, rarity);
    yield* index.build();
    return index;
  }

  private *build(): Steps<void> {
    const read: ReadName[] = [];
    for (let e = 0; e < this.entities.length; e++) {
      const entity = this.entities[e] as ListEntity;
      entity.names.forEach((name, n) => {
        // Each reading of a name (its bracketed parts, its Korean reading) is indexed under the
        // listed name it comes from, and counted once for the words' rarity.
        const words = new Set<number>();
        for (const { text, part } of nameVariants(name.full)) {
          const tokens = analyzeName(text, entity.type === 'person');
          if (tokens.length === 0) continue;
          const ids = tokens.map((t) => this.vocabulary.intern(t).id);
          for (const id of ids) words.add(id);
          read.push({ entity: e, nameIndex: n, kind: name.kind, part, ids, shown: tokens.map((t) => t.shown), orderKnown: !text.includes(',') });
        }
        if (words.size > 0) this.vocabulary.countName(words);
      });
      // An entity's first names bring new words, whose keys cost far more than known ones'.
      yield;
    }
    yield* this.vocabulary.weighAll(STEP);
    const keys = yield* this.indexVocabulary();
    this.phonetic = keys.phonetic;
    this.skeletons = keys.skeletons;
    this.deletes = keys.deletes;
    this.prefixes = keys.prefixes;
    this.stems = keys.stems;
    this.joinedPairs = yield* this.indexNames(read);
  }

  /** The keys that find a vocabulary word under another spelling. */
  private *indexVocabulary() {
    const phonetic = new HashedPostingsBuilder();
    const skeletons = { abjad: new HashedPostingsBuilder(), vowelled: new HashedPostingsBuilder() };
    const deletes = new HashedPostingsBuilder();
    const prefixes = new HashedPostingsBuilder();
    const stems = new HashedPostingsBuilder();
    for (const entry of this.vocabulary.entries) {
      if (entry.id % STEP === STEP - 1) yield;
      if (entry.role !== 'name' && entry.role !== 'patronymic') continue;
      for (const code of entry.phonetic) phonetic.add(code, entry.id);
      if (entry.skeleton.length >= 3) (entry.script === 'abjad' ? skeletons.abjad : skeletons.vowelled).add(entry.skeleton, entry.id);
      if (entry.text.length >= PREFIX_LOOKUP_MIN_LENGTH - 2 && entry.script === 'latin') prefixes.add(prefixKey(entry.text, entry.text.length), entry.id);
      if (entry.script === 'latin' && wordStem(entry.text) !== entry.text) stems.add(wordStem(entry.text), entry.id);
      if (entry.text.length >= TYPO_LOOKUP_MIN_LENGTH && entry.script !== 'abjad') {
        deletes.add(entry.text, entry.id);
        for (const key of deletions(entry.text)) deletes.add(key, entry.id);
      }
    }
    return {
      phonetic: yield* phonetic.freezing(),
      skeletons: { abjad: yield* skeletons.abjad.freezing(), vowelled: yield* skeletons.vowelled.freezing() },
      deletes: yield* deletes.freezing(),
      prefixes: yield* prefixes.freezing(),
      stems: yield* stems.freezing(),
    };
  }

  /** Prepares every list name for scoring and files it under its words and its joined word pairs. */
  private *indexNames(read: readonly ReadName[]): Steps<HashedPostings> {
    const { entries } = this.vocabulary;
    const joinedPairs = new HashedPostingsBuilder();
    const postingCount = new Uint32Array(entries.length);
    this.nameWeight = new Float64Array(read.length);
    this.namePerson = new Uint8Array(read.length);
    this.nameList = new Uint16Array(read.length);
    for (let nameId = 0; nameId < read.length; nameId++) {
      const name = read[nameId] as ReadName;
      const tokens = name.ids.map((id, i) => {
        const entry = entries[id] as VocabEntry;
        const shown = name.shown[i] as string;
        // Most occurrences show their token's text and share its entry; a legal form shows its own
        // spelling, on a copy (not an object inheriting from the entry: V8 keeps a prototype's
        // properties in a dictionary, hundreds of bytes per entry).
        return shown === entry.shown ? entry : { ...entry, shown };
      });
      const entity = this.entities[name.entity] as ListEntity;
      const isPerson = entity.type === 'person';
      this.namePerson[nameId] = isPerson ? 1 : 0;
      this.nameList[nameId] = this.listPlace(entity.list);
      const prepared = prepareName(tokens, this.vocabulary.joinedListKeysOf, { orderKnown: name.orderKnown, isPerson });
      const { joined, joinedThree, lineage } = prepared;
      this.names.push({
        tokens,
        joined,
        joinedThree,
        lineage,
        isPerson,
        rarityKnown: false,
        memo: undefined,
        entity: name.entity,
        nameIndex: name.nameIndex,
        kind: name.kind,
        part: name.part,
      });
      this.nameWeight[nameId] = tokens.reduce((sum, t) => sum + t.weight, 0);
      for (const id of new Set(name.ids)) postingCount[id] = (postingCount[id] as number) + 1;
      for (let i = 0; i + 1 < tokens.length; i++) {
        const a = tokens[i] as WeightedToken;
        const b = tokens[i + 1] as WeightedToken;
        if (joinable(a) && joinable(b) && a.role !== 'legal_form') joinedPairs.add(joinText(a) + joinText(b), nameId);
      }
      for (const three of joinedThree) if (three) joinedPairs.add(three.text, nameId);
      if (nameId % STEP === STEP - 1) yield;
    }
    // Postings as one array of name ids, each word's run after the one before it.
    this.postingStart = new Uint32Array(entries.length + 1);
    for (let id = 0; id < entries.length; id++) this.postingStart[id + 1] = (this.postingStart[id] as number) + (postingCount[id] as number);
    this.postingIds = new Uint32Array(this.postingStart[entries.length] as number);
    const filled = this.postingStart.slice(0, entries.length);
    for (let nameId = 0; nameId < read.length; nameId++) {
      for (const id of new Set((read[nameId] as ReadName).ids)) this.postingIds[(filled[id] as number)++] = nameId;
      if (nameId % STEP === STEP - 1) yield;
    }
    return yield* joinedPairs.freezing();
  }

  /** An organization's watchlists are lists of their own: an index may hold names from thousands of lists. */
  private listPlace(list: string): number {
    const known = this.listPlaces.get(list);
    if (known !== undefined) return known;
    if (this.listCodes.length === 65_536) throw new RangeError('an index holds names from at most 65,536 lists');
    this.listPlaces.set(list, this.listCodes.length);
    return this.listCodes.push(list) - 1;
  }

  /** Credits every name a vocabulary word is on, straight from the postings array (no view per word). */
  private creditWord(scratch: EvidenceScratch, vocabId: number, amount: number): void {
    scratch.creditRange(this.postingIds, this.postingStart[vocabId] as number, this.postingStart[vocabId + 1] as number, amount);
  }

  /** Query tokens weighted by the same rarity table as the list's. */
  weigh(tokens: readonly Omit<WeightedToken, 'weight' | 'phonetic' | 'skeleton'>[]): WeightedToken[] {
    return tokens.map((t) => weightedToken(this.vocabulary.keysOf(t.text, t), t.shown, this.vocabulary.weightOf(t)));
  }

  /**
   * List names sharing enough with the query to be worth scoring, best evidence first. Evidence is
   * the rarity-weighted similarity of the query's words found in the name; a name whose evidence
   * covers less than MIN_EVIDENCE_SHARE of the query's weight cannot reach a useful score.
   */
  candidates(prepared: PreparedName, filter: CandidateFilter): number[] {
    const query = prepared.tokens;
    const scratch = this.scratch();
    const searchable = query.filter((t) => t.role === 'name' || t.role === 'number' || t.role === 'patronymic');
    const tokens = searchable.length > 0 ? searchable : query;
    for (const token of tokens) {
      scratch.nextToken();
      const similar = this.similarVocabulary(token);
      for (let i = 0; i < similar.length; i += 2) this.creditWord(scratch, similar[i] as number, (similar[i + 1] as number) * token.weight);
      scratch.credit(this.joinedPairs.get(token.text), token.weight);
      scratch.commitToken();
    }
    // Query words the list writes as one (Abdul Rahman → ABDULRAHMAN, عبد الله → Abdullah, Abd al-Rahman → ABDULRAHMAN).
    for (let unit = query.length; unit < unitCount(prepared); unit++) {
      const keys = unitKeys(prepared, unit);
      if (!keys) continue;
      const words = query.slice(unitFrom(prepared, unit), unitTo(prepared, unit) + 1);
      const joined = weightedToken(
        keys,
        words.map((w) => w.shown).join(' '),
        words.reduce((sum, w) => sum + w.weight, 0),
      );
      // A list word one of the words already found (cho → chol) is not credited again for the join.
      const found = words.map((w) => this.similarVocabulary(w));
      scratch.nextToken();
      const similar = this.similarVocabulary(joined);
      for (let i = 0; i < similar.length; i += 2) {
        const vocabId = similar[i] as number;
        if (!found.some((f) => hasWord(f, vocabId))) this.creditWord(scratch, vocabId, (similar[i + 1] as number) * joined.weight);
      }
      scratch.commitToken();
    }
    const total = tokens.reduce((sum, t) => sum + t.weight, 0);
    const wanted = filter.persons ? 1 : 0;
    const lists = filter.lists;
    const listAccepted = lists && Uint8Array.from(this.listCodes, (code) => (lists.has(code) ? 1 : 0));
    const accepted = (nameId: number) => this.namePerson[nameId] === wanted && (!listAccepted || listAccepted[this.nameList[nameId] as number] === 1);
    return scratch.best(CANDIDATES_PER_QUERY_NAME, MIN_EVIDENCE_SHARE * total, this.nameWeight, accepted);
  }

  private scratchSpace?: EvidenceScratch;
  private scratch(): EvidenceScratch {
    this.scratchSpace ??= new EvidenceScratch(this.names.length);
    this.scratchSpace.reset();
    return this.scratchSpace;
  }

  /**
   * Vocabulary entries close to a query token, with their similarity, as one flat array of (id,
   * similarity) pairs. Remembered per word (most queries share words like "trading" or
   * "mohammed"), up to SIMILAR_CACHE_LIMIT words: a flat array costs a fraction of a Map.
   */
  private similarVocabulary(token: WeightedToken): SimilarWords {
    const key = `${token.role}|${token.script}|${token.glyph ?? ''}|${token.text}`;
    const cached = this.similarCache.get(key);
    if (cached) return cached;
    const found = this.lookUpSimilar(token);
    if (this.similarCache.size >= SIMILAR_CACHE_LIMIT) this.similarCache.clear();
    this.similarCache.set(key, found);
    return found;
  }

  private readonly similarCache = new Map<string, SimilarWords>();

  private lookUpSimilar(token: WeightedToken): SimilarWords {
    const seen = new Set<number>();
    const found: number[] = [];
    const consider = (ids: ArrayLike<number>) => {
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i] as number;
        if (seen.has(id)) continue;
        seen.add(id);
        const { similarity } = tokenSimilarity(token, this.vocabulary.entries[id] as TokenKeys);
        if (similarity >= MIN_KEY_SIMILARITY) found.push(id, similarity);
      }
    };
    consider(this.vocabulary.byText(token.text));
    if (token.role !== 'name' && token.role !== 'patronymic') return found;
    for (const code of token.phonetic) consider(this.phonetic.get(code));
    for (const form of GIVEN_NAMES.others(token.text)) consider(this.vocabulary.byText(form));
    for (const form of TRADE_WORDS.others(token.text)) consider(this.vocabulary.byText(form));
    if (token.script === 'latin') {
      const stem = wordStem(token.text);
      consider(this.stems.get(stem));
      if (stem !== token.text) consider(this.vocabulary.byText(stem));
    }
    if (isHangul(token.glyph)) for (const spelling of koreanSpellings(token.text)) consider(this.vocabulary.byText(spelling));
    if (token.skeleton.length >= 3) consider((token.script === 'abjad' ? this.skeletons.vowelled : this.skeletons.abjad).get(token.skeleton));
    if (token.text.length >= TYPO_LOOKUP_MIN_LENGTH - 1 && token.script !== 'abjad') {
      consider(this.deletes.get(token.text));
      for (const key of deletions(token.text)) consider(this.deletes.get(key));
    }
    if (token.text.length >= PREFIX_LOOKUP_MIN_LENGTH) {
      for (let length = token.text.length - 2; length <= token.text.length + 2; length++) consider(this.prefixes.get(prefixKey(token.text, length)));
    }
    return found;
  }
}
