/**
 * One rule's covered sets over one graph, as the evaluation computes them (evaluate.ts) and the
 * explanations (explain.ts) and the warnings (warnings.ts) read them. Declared here, below all
 * three, so that what reads them need not import the evaluation that calls it.
 */
import type { Closure } from './closure.ts';
import type { DesignationList } from './list-scope.ts';

/** One rule's covered sets over one graph. */
export type RuleSets = {
  seeds: Uint8Array;
  /** Covered surely: definite seeds, unknown stakes as 0. */
  lower: Closure;
  /** Covered possibly: possible seeds too, unknown stakes at their largest. */
  upper: Closure;
  /** The lists that make a party count for this rule. */
  listsOf: (v: number) => DesignationList[];
};

/** The sets, and the upper one grown from definite seeds only: whether unknown stakes alone could cover a party (BIS's Red Flag 29). */
export type EvaluatedRule = RuleSets & { upperDefinite: Closure };
