/**
 * The ownership check: OFAC's 50 Percent Rule and the BIS Affiliates Rule over one ownership
 * graph on one date (ownership-rules.md §5). One computation, two seed sets: each rule's covered
 * set is grown from the parties its lists make count, once with unknown stakes at 0 (lower) and
 * once at their largest (upper); where the two disagree the answer is not determinate.
 * Pure and linear in the size of the graph; validate the query first (validateOwnershipQuery).
 */
import { type Bound, coveredSet, coveredStakes, isCovered, listedOnly, upperStakes } from './closure.ts';
import { ownersOf } from './cycles.ts';
import { contributors, explainPaths, inheritedFrom } from './explain.ts';
import { buildGraph, type OwnershipGraph, type ResolvedIds } from './graph.ts';
import { bisSeedLevel, countedLists, LIST_SCOPE, ofacSeedLevel, type ScopeOptions, SeedLevel } from './list-scope.ts';
import { fromMillionths } from './percent.ts';
import type { EvaluatedRule, RuleSets } from './rule-sets.ts';
import { affiliatesRuleWindow, BIS_AFFILIATES_RULE, type RuleWindow } from './rule-status.ts';
import type { BisVerdict, EntityVerdict, OfacVerdict, OwnershipQuery, OwnershipVerdict } from './types.ts';
import { collectWarnings } from './warnings.ts';

export type EvaluationOptions = ScopeOptions & {
  /** The BIS rule's dated status; the table in rule-status.ts unless a test or a future table says otherwise. */
  affiliatesRule?: readonly RuleWindow[];
  /** Positions in `entities` to list in the answer whatever their status (parties that screening matched). */
  alsoReport?: ReadonlySet<number>;
};

/** `resolved`: what validateOwnershipQuery resolved for this query, so that ids are looked up once. */
export function evaluateOwnership(query: OwnershipQuery, options: EvaluationOptions = {}, resolved?: ResolvedIds): OwnershipVerdict {
  const graph = buildGraph(query, resolved);
  const target = graph.indexOf.get(query.target);
  if (target === undefined) throw new Error('The target is not in the graph: validate the query first');
  const window = affiliatesRuleWindow(query.asOf, options.affiliatesRule ?? BIS_AFFILIATES_RULE);
  const bisOperative = window.status === 'in_force';

  const ofac = ruleSets(
    graph,
    (v) => ofacSeedLevel(graph.designations[v] ?? [], options),
    (v) => countedLists(graph.designations[v] ?? [], 'ofac', options),
  );
  const bis = ruleSets(
    graph,
    (v) => bisSeedLevel(graph.designations[v] ?? []),
    (v) => countedLists(graph.designations[v] ?? [], 'bis'),
    bisOperative,
  );
  const isForeignEntity = (v: number) => !graph.isPerson[v] && !graph.isUs[v];
  const ofacListed = (v: number) => (graph.designations[v] ?? []).some((d) => LIST_SCOPE[d.list].ofac);

  // Blocked: on a blocking list (even under a program that does not pass the block on), or covered through ownership.
  const ofacStatus: Status = (v, bound) => ofacListed(v) || isCovered(ofac[bound], v);
  // Restricted by BIS: listed itself or, while the rule is in force, a foreign entity covered through ownership.
  const bisStatus: Status = (v, bound) =>
    (bis.seeds[v] as number) >= (bound === 'lower' ? SeedLevel.Definite : SeedLevel.Possible) ||
    (bisOperative && isForeignEntity(v) && isCovered(bis[bound], v));

  const ofacExplained = explained(graph, ofac, target, true);
  const bisExplained = explained(graph, bis, target, bisOperative);
  const ofacAnswer: OfacVerdict = {
    blocked: ofacStatus(target, 'lower'),
    ...verdictOf(ofacStatus, target, ofacListed(target)),
    ...ofacExplained.fields,
  };
  const bisAnswer: BisVerdict = {
    restricted: bisStatus(target, 'lower'),
    ...verdictOf(bisStatus, target, bis.seeds[target] === SeedLevel.Definite),
    ...bisExplained.fields,
    affiliates_rule_status: window.status,
    affiliates_rule_window: { from: window.from, to: window.to, scheduled: window.scheduled, source: window.source },
    foreign_entity: isForeignEntity(target),
    // Red Flag 29 is about ownership percentages that cannot be determined: would unknown stakes alone make the target covered?
    red_flag_29: bisOperative && !bisStatus(target, 'lower') && isForeignEntity(target) && isCovered(bis.upperDefinite, target),
    inherited_from: bisOperative ? inheritedFrom(graph, bis, bisExplained.closure, target) : listedTarget(graph, bis, target),
  };

  const owners = ownersOf(graph, target);
  const entities: EntityVerdict[] = [];
  for (let v = 0; v < graph.size; v++) {
    const designations = graph.designations[v] ?? [];
    // Covered sets, not statuses: a U.S. conduit is listed although the rule does not restrict it.
    const reported =
      v === target || designations.length > 0 || options.alsoReport?.has(v) || isCovered(ofac.upper, v) || (bisOperative && isCovered(bis.upper, v));
    if (!reported) continue;
    entities.push({
      id: graph.ids[v] as string,
      ofac_blocked: ofacStatus(v, 'lower'),
      ofac_determinate: ofacStatus(v, 'lower') === ofacStatus(v, 'upper'),
      bis_restricted: bisStatus(v, 'lower'),
      bis_determinate: bisStatus(v, 'lower') === bisStatus(v, 'upper'),
      designations: [...designations],
    });
  }

  return {
    target: query.target,
    as_of: query.asOf,
    ofac: ofacAnswer,
    bis: bisAnswer,
    entities,
    warnings: collectWarnings({ graph, query, target, owners, bis, window, verdicts: { ofac: ofacAnswer, bis: bisAnswer } }),
  };
}

/** Whether a rule reaches `v` surely (lower) or possibly (upper). */
type Status = (v: number, bound: Bound) => boolean;

/** Determinate when the sure and the possible answers agree; the basis says why the rule reaches the target. */
const verdictOf = (status: Status, target: number, listed: boolean) => ({
  determinate: status(target, 'lower') === status(target, 'upper'),
  basis: listed ? ('listed' as const) : status(target, 'lower') ? ('ownership' as const) : ('none' as const),
});

/** Seeds and covered sets of one rule; a rule not operative on the date covers only its listed parties. */
function ruleSets(graph: OwnershipGraph, seedLevel: (v: number) => SeedLevel, listsOf: RuleSets['listsOf'], operative = true): EvaluatedRule {
  const seeds = new Uint8Array(graph.size);
  let possibleOnly = false;
  for (let v = 0; v < graph.size; v++) {
    seeds[v] = seedLevel(v);
    if (seeds[v] === SeedLevel.Possible) possibleOnly = true;
  }
  const closure = (minimumSeed: SeedLevel, bound: Bound) => (operative ? coveredSet(graph, seeds, minimumSeed, bound) : listedOnly(seeds, minimumSeed));
  const lower = closure(SeedLevel.Definite, 'lower');
  const upper = closure(SeedLevel.Possible, 'upper');
  const upperDefinite = possibleOnly ? closure(SeedLevel.Definite, 'upper') : upper;
  return { seeds, lower, upper, upperDefinite, listsOf };
}

const listedTarget = (graph: OwnershipGraph, rule: RuleSets, target: number) =>
  rule.seeds[target] === SeedLevel.Definite ? [{ entity: graph.ids[target] as string, lists: rule.listsOf(target) }] : [];

/**
 * The parts both rules report alike. Paths run over the lower set, or over the upper one when
 * only unknown stakes or unknown programs could make the target covered, to show how.
 */
function explained(graph: OwnershipGraph, rule: EvaluatedRule, target: number, operative: boolean) {
  const undetermined = !isCovered(rule.lower, target) && isCovered(rule.upper, target);
  const closure = undetermined ? rule.upper : rule.lower;
  const person = graph.isPerson[target] === 1;
  const { paths, truncated } = operative && !person ? explainPaths(graph, rule, closure, target) : { paths: [], truncated: false };
  return {
    closure,
    fields: {
      aggregate_percent: operative && !person ? fromMillionths(coveredStakes(graph, rule.lower, target).known) : null,
      aggregate_percent_upper: operative && !person ? fromMillionths(upperStakes(graph, rule.upper, target)) : null,
      contributors: operative && !person ? contributors(graph, rule, target) : [],
      paths,
      paths_truncated: truncated,
    },
  };
}
