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
  /** The names the query touched, touched[0 … touchedCount − 1]; those the current token touched likewise. */
  private readonly touched: Uint32Array;
  private touchedCount = 0;
  private readonly touchedByToken: Uint32Array;
  private touchedByTokenCount = 0;
  private readonly seen: Uint8Array;
  private stamp = 0;

  constructor(size: number) {
    this.evidence = new Float64Array(size);
    this.tokenBest = new Float64Array(size);
    this.tokenStamp = new Uint32Array(size);
    this.seen = new Uint8Array(size);
    this.touched = new Uint32Array(size);
    this.touchedByToken = new Uint32Array(size);
  }

  reset() {
    for (let i = 0; i < this.touchedCount; i++) {
      const id = this.touched[i] as number;
      this.evidence[id] = 0;
      this.seen[id] = 0;
    }
    this.touchedCount = 0;
  }

  /** Starts a query token: each name earns at most its best amount per token. */
  nextToken() {
    this.stamp += 1;
    this.touchedByTokenCount = 0;
  }

  credit(nameIds: ArrayLike<number>, amount: number) {
    this.creditRange(nameIds, 0, nameIds.length, amount);
  }

  /** Credits the names nameIds[from] … nameIds[to − 1]. */
  creditRange(nameIds: ArrayLike<number>, from: number, to: number, amount: number) {
    for (let i = from; i < to; i++) {
      const id = nameIds[i] as number;
      if (this.tokenStamp[id] !== this.stamp) {
        this.tokenStamp[id] = this.stamp;
        this.tokenBest[id] = amount;
        this.touchedByToken[this.touchedByTokenCount++] = id;
      } else if ((this.tokenBest[id] as number) < amount) {
        this.tokenBest[id] = amount;
      }
    }
  }

  commitToken() {
    for (let i = 0; i < this.touchedByTokenCount; i++) {
      const id = this.touchedByToken[i] as number;
      if (!this.seen[id]) {
        this.seen[id] = 1;
        this.touched[this.touchedCount++] = id;
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
      const id = heap[i] as number;
      const rank = ranks[i] as number;
      heap[i] = heap[j] as number;
      ranks[i] = ranks[j] as number;
      heap[j] = id;
      ranks[j] = rank;
    };
    for (let t = 0; t < this.touchedCount; t++) {
      const id = this.touched[t] as number;
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
