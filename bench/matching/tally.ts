/**
 * Collects one set's decisions for one matcher and turns them into the report's rows: the
 * figures on all rows and on the never-tuned test part, and the worst misses of the dev and tune
 * parts (to stdout, to guide tuning: the positives scored lowest and the negatives scored highest).
 */
import { type Confusion, count, emptyConfusion } from './metrics.ts';
import { partOf } from './split.ts';

export type Outcome = {
  set: string;
  variant: string;
  matcher: string;
  part: 'all' | 'test';
  threshold: number;
  confusion: Confusion;
};

export type Worst = { title: string; falseNegatives: string[]; falsePositives: string[] };

type Decision = { test: boolean; isMatch: boolean; predicted: boolean; score: number; label: string };

export class Tally {
  private readonly decisions: Decision[] = [];

  constructor(
    private readonly set: string,
    private readonly variant: string,
    private readonly matcher: string,
    private readonly threshold: number,
  ) {}

  /** `splitKey` is the entity (or case) the row belongs to; `score` is the best relevant score. */
  add(splitKey: string, isMatch: boolean, predicted: boolean, score: number, label: string): void {
    this.decisions.push({ test: partOf(splitKey) === 'test', isMatch, predicted, score, label });
  }

  outcomes(): Outcome[] {
    const all = emptyConfusion();
    const test = emptyConfusion();
    for (const d of this.decisions) {
      count(all, d.isMatch, d.predicted);
      if (d.test) count(test, d.isMatch, d.predicted);
    }
    const base = { set: this.set, variant: this.variant, matcher: this.matcher, threshold: this.threshold };
    return [
      { ...base, part: 'all', confusion: all },
      { ...base, part: 'test', confusion: test },
    ];
  }

  /** The worst misses of the dev and tune parts: the test part's failures are never shown to whoever tunes. */
  worst(limit = 20): Worst {
    const tunable = this.decisions.filter((d) => !d.test);
    const falseNegatives = tunable.filter((d) => d.isMatch && !d.predicted).sort((a, b) => a.score - b.score);
    const falsePositives = tunable.filter((d) => !d.isMatch && d.predicted).sort((a, b) => b.score - a.score);
    const show = (d: Decision) => `${d.score.toFixed(3)}  ${d.label}`;
    return {
      title: `${this.set} / ${this.variant} / ${this.matcher} (dev and tune parts)`,
      falseNegatives: falseNegatives.slice(0, limit).map(show),
      falsePositives: falsePositives.slice(0, limit).map(show),
    };
  }
}

export type SetResult = { outcomes: Outcome[]; worst: Worst[]; notes: string[] };

/** `headline` are the tallies whose worst misses are printed (not every per-schema slice). */
export function collect(tallies: readonly Tally[], notes: string[] = [], headline: readonly Tally[] = tallies): SetResult {
  return { outcomes: tallies.flatMap((t) => t.outcomes()), worst: headline.map((t) => t.worst()), notes };
}
