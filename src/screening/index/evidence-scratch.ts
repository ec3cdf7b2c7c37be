/**
 * Per-query accumulators for candidate generation, allocated once per index and reused: typed
 * arrays indexed by name id, with a list of the ids touched so a reset costs what the query
 * touched, not the size of the index. Screening is synchronous, so one scratch per index is safe.
 */
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

  credit(nameIds: readonly number[], amount: number) {
    for (const id of nameIds) {
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
   * Name ids with at least `minimum` evidence, best first. Evidence is discounted by a share of the
   * name's own weight, so that among names sharing the query's words the one with the fewest other
   * words ranks first (AL-AQSA before AL-AQSA FOUNDATION).
   */
  ranked(minimum: number, nameWeight: Float64Array): number[] {
    const rank = (id: number) => (this.evidence[id] as number) - 0.15 * (nameWeight[id] as number);
    return this.touched.filter((id) => (this.evidence[id] as number) >= minimum).sort((a, b) => rank(b) - rank(a));
  }
}
