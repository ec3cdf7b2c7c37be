/**
 * What a reviewer must know beside the verdict: the data that bounds it (unknown stakes, sums
 * over 100 %, cycles, unknown SDN programs), what the rules do not count (control, uncounted
 * lists, minority stakes) and where the law is uncertain (U.S. conduits, the TGL). Only the
 * target and its owners are looked at: nothing else can change the target's verdict.
 */
import { isCovered } from './closure.ts';
import { ownershipCycles } from './cycles.ts';
import { type OwnershipGraph, UNKNOWN } from './graph.ts';
import { LIST_SCOPE, SeedLevel } from './list-scope.ts';
import { HUNDRED_PERCENT, percentText } from './percent.ts';
import type { EvaluatedRule } from './rule-sets.ts';
import { BIS_TGL_WINDOW, inWindow, OFAC_AGGREGATION_GUIDANCE_FROM, type RuleWindow } from './rule-status.ts';
import type { BisVerdict, OfacVerdict, OwnershipQuery, OwnershipWarning, WarningCode } from './types.ts';

/** The most entity ids a warning lists; `count` gives the total. */
export const WARNING_SAMPLE = 20;

export type WarningContext = {
  graph: OwnershipGraph;
  query: OwnershipQuery;
  target: number;
  /** The target and its direct and indirect owners. */
  owners: Uint8Array;
  bis: EvaluatedRule;
  window: RuleWindow;
  verdicts: { ofac: OfacVerdict; bis: BisVerdict };
};

export function collectWarnings(context: WarningContext): OwnershipWarning[] {
  const { graph, query, target, owners, bis, window, verdicts } = context;
  const warnings: OwnershipWarning[] = [];
  const add = (code: WarningCode, detail: string, entities?: number[]) => {
    warnings.push({
      code,
      detail,
      ...(entities && { entities: entities.slice(0, WARNING_SAMPLE).map((v) => graph.ids[v] as string), count: entities.length }),
    });
  };
  const ownerList: number[] = [];
  for (let v = 0; v < graph.size; v++) if (owners[v]) ownerList.push(v);
  const id = (v: number) => graph.ids[v] as string;
  const bisInForce = window.status === 'in_force';

  const cycles = ownershipCycles(graph, owners);
  if (cycles.length > 0) {
    add(
      'cycle_detected',
      `${cycles.length} ownership cycle(s) among the target and its owners, e.g. ${cycles[0]?.map(id).join(', ')}. ` +
        'A cycle never makes its own members covered; only a covered owner outside it can (least fixed point, the reading of OFAC FAQ 401; OFAC is silent on circular holdings).',
      cycles.flat(),
    );
  }

  const over100 = ownerList.filter((v) => (graph.knownIn[v] as number) > HUNDRED_PERCENT);
  if (over100.length > 0) {
    const first = over100[0] as number;
    add(
      'ownership_over_100',
      `The known stakes in ${over100.length} entit(ies) add up to more than 100% (${id(first)}: ${percentText(graph.knownIn[first] as number)}). They are used as given, not scaled down: scaling could clear a target on bad data.`,
      over100,
    );
  }

  const unknownInto = new Set<number>();
  forEachStake(graph, ownerList, (_owner, owned, stake) => stake === UNKNOWN && unknownInto.add(owned));
  if (unknownInto.size > 0) {
    add(
      'unknown_percent',
      `${unknownInto.size} entit(ies) among the target and its owners have stakes of unknown size. Each rule was evaluated with those stakes at 0% (lower bound) ` +
        'and at all that the known stakes leave (upper bound); where the bounds disagree the answer is not determinate.',
      [...unknownInto],
    );
  }

  const control = graph.others.filter((link) => owners[link.owned]);
  if (control.length > 0) {
    const kinds = [...new Set(control.map((l) => l.kind))].join(', ');
    add(
      'control_not_ownership',
      `${control.length} relationship(s) that are not ownership (${kinds}) reach the target or its owners. Neither rule counts control (OFAC FAQ 398, BIS FAQ #43), ` +
        'but OFAC urges caution with entities a blocked person controls, and BIS treats significant ties to a listed party as a red flag.',
      [...new Set(control.map((l) => l.owner))],
    );
  }

  const noPrograms = ownerList.filter((v) => (graph.designations[v] ?? []).some((d) => d.list === 'OFAC_SDN' && (d.programs ?? []).length === 0));
  if (noPrograms.length > 0) {
    add(
      'sdn_programs_unknown',
      'SDN designations without programs count for OFAC, but for BIS only under the programs of 15 CFR 744.8(a)(1): BIS was evaluated both ways, and is not determinate where that matters. Give the programs.',
      noPrograms,
    );
  }

  const minority = [
    !verdicts.ofac.blocked &&
      (verdicts.ofac.aggregate_percent ?? 0) > 0 &&
      `blocked persons hold ${verdicts.ofac.aggregate_percent}% (OFAC urges caution with significant minority stakes)`,
    bisInForce &&
      !verdicts.bis.restricted &&
      (verdicts.bis.aggregate_percent ?? 0) > 0 &&
      `listed parties hold ${verdicts.bis.aggregate_percent}% (significant minority ownership by a listed party is a BIS red flag)`,
  ].filter(Boolean);
  if (minority.length > 0) add('minority_ownership', `Below 50%, but ${minority.join('; ')}. No threshold for "significant" is defined; review the stake.`);

  const uncounted = ownerList.filter((v) => (graph.designations[v] ?? []).some((d) => !LIST_SCOPE[d.list].ofac && LIST_SCOPE[d.list].bis === false));
  if (uncounted.length > 0) {
    add(
      'listed_not_counted',
      'Listed on lists neither rule aggregates (OFAC SSI and other non-SDN lists, the BIS Unverified and Denied Persons Lists): their stakes were not counted, ' +
        "and each list's own restrictions apply to the party itself. Review them separately.",
      uncounted,
    );
  }

  if (query.asOf < OFAC_AGGREGATION_GUIDANCE_FROM) {
    add(
      'as_of_before_aggregation_guidance',
      `as_of is before ${OFAC_AGGREGATION_GUIDANCE_FROM}, when OFAC's guidance began aggregating the stakes of different blocked persons; the current standard was applied.`,
    );
  }
  if (!graph.isPerson[target] && !graph.hasCountry[target]) {
    add('country_unknown', 'The target has no country: for BIS it was treated as a foreign entity, which the Affiliates Rule reaches. Give its country.', [
      target,
    ]);
  }

  if (bisInForce) {
    const conduits = ownerList.filter((v) => v !== target && graph.isUs[v] && !graph.isPerson[v] && isCovered(bis.upper, v) && bis.seeds[v] === SeedLevel.None);
    if (conduits.length > 0) {
      add(
        'us_intermediate',
        'U.S. entities among the owners are 50% or more owned by listed parties: not restricted themselves (the rule reaches foreign entities), they were counted as conduits for what they own (medium confidence, ownership-rules.md §3.3).',
        conduits,
      );
    }
    if (graph.isUs[target] && !graph.isPerson[target] && isCovered(bis.upper, target) && bis.seeds[target] === SeedLevel.None) {
      add(
        'us_target',
        'The target is a U.S. entity: it would be covered by the Affiliates Rule if it were foreign, but the rule reaches foreign entities only. OFAC is evaluated regardless.',
        [target],
      );
    }
    if (verdicts.bis.basis === 'ownership' && inWindow(query.asOf, BIS_TGL_WINDOW)) {
      add(
        'tgl_period',
        `The Temporary General License (${BIS_TGL_WINDOW.source}) may have authorized some transactions with this affiliate on that date; it never changed its status, and it did not cover affiliates of §744.8 SDNs.`,
      );
    }
  }

  const outOfDate = graph.outOfDate.filter((link) => owners[link.owned]);
  if (outOfDate.length > 0)
    add(
      'edges_not_in_effect',
      `${outOfDate.length} stake(s) into the target or its owners were left out: their start_date or end_date excludes ${query.asOf}.`,
      [...new Set(outOfDate.map((l) => l.owned))],
    );
  return warnings;
}

function forEachStake(graph: OwnershipGraph, into: number[], visit: (owner: number, owned: number, stake: number) => void) {
  for (const owned of into) {
    const end = graph.up.start[owned + 1] as number;
    for (let e = graph.up.start[owned] as number; e < end; e++) visit(graph.up.other[e] as number, owned, graph.up.stake[e] as number);
  }
}
