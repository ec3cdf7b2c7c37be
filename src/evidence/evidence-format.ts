/**
 * How numbers and absent values read in the evidence document. Fixed formats, no locale or time
 * zone of the machine: the same record must give the same bytes anywhere.
 */
export const formatScore = (score: number): string => score.toFixed(3);

export const formatSimilarity = (similarity: number): string => similarity.toFixed(2);

export const formatContribution = (contribution: number): string => `${contribution >= 0 ? '+' : '−'}${Math.abs(contribution).toFixed(3)}`;

export const orNotGiven = (value: string | null | undefined, absent = 'not given'): string =>
  value === undefined || value === null || value === '' ? absent : value;

export const formatCount = (count: number): string => String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
