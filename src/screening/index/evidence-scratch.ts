/**
 * Per-query accumulators for candidate generation, allocated once per index and reused: typed
 * arrays indexed by name id, with a list of the ids touched so a reset costs what the query
 * touched, not the size of the index. Screening is synchronous, so one scratch per index is safe.
 */
/** The first candidates are always scored; later ones only if their evidence is near the best. */
const ALWAYS_SCORED = 16;
const CLOSE_TO_BEST = 0.75;

export class EvidenceScratch {
  private readonly evidence: Float64Array;
  private readonly tokenBest: Float64Array;
  private readonly tokenStamp: Uint32Array;
  private readonly touched: number[] = [];
  private readonly touchedByToken: number[] = [];
  private readonly seen: Uint8Array;
  private stamp = 0;

  constructor(size: number) {
    this.evidence = new Float64Array(size);
    this.tokenBest = new Float64Array(size);
    this.tokenStamp = new Uint32Array(size);
    this.seen = new Uint8Array(size);
  }

  reset() {
    for (const id of this.touched) {
      this.evidence[id] = 0;
      this.seen[id] = 0;
    }
    this.touched.length = 0;
  }

  /** Starts a query token: each name earns at most its best amount per token. */
  nextToken() {
    this.stamp += 1;
    this.touchedByToken.length = 0;
  }

  credit(nameIds: ArrayLike<number>, amount: number) {
    for (let i = 0; i < nameIds.length; i++) {
      const id = nameIds[i] as number;
      if (this.tokenStamp[id] !== this.stamp) {
        this.tokenStamp[id] = this.stamp;
        this.tokenBest[id] = amount;
        this.touchedByToken.push(id);
      } else if ((this.tokenBest[id] as number) < amount) {
        this.tokenBest[id] = amount;
      }
    }
  }

  commitToken() {
    for (const id of this.touchedByToken) {
      if (!this.seen[id]) {
        this.seen[id] = 1;
        this.touched.push(id);
      }
      this.evidence[id] = (this.evidence[id] as number) + (this.tokenBest[id] as number);
    }
  }

  /**
   * The `k` accepted name ids with at least `minimum` evidence, best first, chosen with a small
   * heap rather than by sorting every touched name. Evidence is discounted by a share of the name's
   * own weight, so that among names sharing the query's words the one with the fewest other words
   * ranks first (AL-AQSA before AL-AQSA FOUNDATION).
   */
  best(k: number, minimum: number, nameWeight: Float64Array, accept: (id: number) => boolean): number[] {
    const heap: number[] = [];
    const ranks: number[] = [];
    const swap = (i: number, j: number) => {
      [heap[i], heap[j]] = [heap[j] as number, heap[i] as number];
      [ranks[i], ranks[j]] = [ranks[j] as number, ranks[i] as number];
    };
    for (const id of this.touched) {
      const evidence = this.evidence[id] as number;
      if (evidence < minimum) continue;
      const rank = evidence - 0.15 * (nameWeight[id] as number);
      if (heap.length === k && rank <= (ranks[0] as number)) continue;
      if (!accept(id)) continue;
      if (heap.length < k) {
        heap.push(id);
        ranks.push(rank);
        for (let i = heap.length - 1; i > 0; ) {
          const parent = (i - 1) >> 1;
          if ((ranks[parent] as number) <= (ranks[i] as number)) break;
          swap(i, parent);
          i = parent;
        }
      } else {
        heap[0] = id;
        ranks[0] = rank;
        for (let i = 0; ; ) {
          const left = 2 * i + 1;
          const right = left + 1;
          let smallest = i;
          if (left < k && (ranks[left] as number) < (ranks[smallest] as number)) smallest = left;
          if (right < k && (ranks[right] as number) < (ranks[smallest] as number)) smallest = right;
          if (smallest === i) break;
          swap(i, smallest);
          i = smallest;
        }
      }
    }
    const ranked = heap.map((id, i) => [id, ranks[i] as number] as const).sort((a, b) => b[1] - a[1]);
    // Past the first few, a name whose evidence is far below the best one's cannot outscore it;
    // long names that share common words (institute, research, federal) stop costing a score each.
    const top = this.evidence[ranked[0]?.[0] ?? 0] as number;
    return ranked.filter(([id], i) => i < ALWAYS_SCORED || (this.evidence[id] as number) >= CLOSE_TO_BEST * top).map(([id]) => id);
  }
}
