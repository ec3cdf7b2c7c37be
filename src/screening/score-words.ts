/**
 * A score or threshold as explanations write it: two decimals, or three when a rule set a
 * threshold to three (0.825), so the words never round a threshold to another one.
 */
export const scoreInWords = (score: number): string => (Math.abs(Math.round(score * 100) - score * 100) < 1e-6 ? score.toFixed(2) : score.toFixed(3));
