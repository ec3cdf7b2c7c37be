/**
 * What one qualifier says about a match. qualifiers.ts applies verdicts to the name's score and
 * the qualifiers (date-of-birth.ts, identifiers.ts) give them: declared here, below all three, so
 * that the givers need not import what applies them.
 */
import type { QualifierExplanation } from '../match-types.ts';

/** The effect, how strongly it moves the score (see qualifiers.ts for how each effect applies it), and why, in words. */
export type Verdict = { effect: QualifierExplanation['effect']; strength: number; detail: string };
