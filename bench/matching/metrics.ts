/**
 * The figures every evaluation set reports, from confusion counts: precision, recall, F1 and
 * alerts per 1,000 clean subjects (false positives over all negatives, the review-queue load).
 * A figure a set cannot have (precision on positives alone) is undefined, shown as "—".
 */

export type Confusion = { tp: number; fp: number; fn: number; tn: number };

export const emptyConfusion = (): Confusion => ({ tp: 0, fp: 0, fn: 0, tn: 0 });

export function count(confusion: Confusion, isMatch: boolean, predicted: boolean): void {
  if (isMatch) confusion[predicted ? 'tp' : 'fn']++;
  else confusion[predicted ? 'fp' : 'tn']++;
}

const ratio = (numerator: number, denominator: number) => (denominator === 0 ? undefined : numerator / denominator);

export const precision = (c: Confusion) => ratio(c.tp, c.tp + c.fp);
export const recall = (c: Confusion) => ratio(c.tp, c.tp + c.fn);
export const alertsPerThousand = (c: Confusion) => {
  const perOne = ratio(c.fp, c.fp + c.tn);
  return perOne === undefined ? undefined : perOne * 1000;
};

export function f1(c: Confusion): number | undefined {
  const p = precision(c);
  const r = recall(c);
  if (p === undefined || r === undefined) return undefined;
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

/** The best F1 over every threshold the scores suggest, and where it is reached. */
export function bestF1(scored: readonly { score: number; isMatch: boolean }[]): { f1: number; threshold: number } {
  let best = { f1: 0, threshold: 1 };
  for (const threshold of new Set(scored.map((s) => s.score))) {
    const confusion = emptyConfusion();
    for (const { score, isMatch } of scored) count(confusion, isMatch, score >= threshold);
    const value = f1(confusion) ?? 0;
    if (value > best.f1) best = { f1: value, threshold };
  }
  return best;
}
