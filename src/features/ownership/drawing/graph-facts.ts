/**
 * What the picture says about each party and each link, read from a stored check: names, types
 * and countries from the request (the answer lists only the parties that matter), lists and
 * statuses from the answer, the deciding paths from both verdicts, and the cycles, found again
 * from the links (the warning lists only a sample of their members).
 */

import { ownershipCycles } from '../../../ownership/cycles.ts';
import { buildGraph, inEffect } from '../../../ownership/graph.ts';
import type { OwnershipQuery } from '../../../ownership/types.ts';
import { NO_NODE_FLAGS } from './drawing-style.ts';
import type { DrawnAnswer, DrawnRequest, EdgeFlags, ListedMark, NodeFlags } from './layout-types.ts';

export type PartyFacts = {
  id: string;
  name: string;
  type: 'person' | 'entity';
  country: string | null;
  marks: ListedMark[];
  flags: NodeFlags;
  /** The party's status in words ("OFAC blocked", "BIS undetermined", "cycle ↻"): what colour shows, said so that colour is not needed. */
  status: string[];
};
export type LinkFacts = { owner: number; owned: number; label: string; flags: EdgeFlags };

export type GraphFacts = {
  parties: PartyFacts[];
  /** The request's links between known parties, in request order. */
  links: LinkFacts[];
  target: number;
  /** Parties a warning of the answer names (cycles, unknown stakes, control, …). */
  warned: ReadonlySet<number>;
};

const pairKey = (owner: string, owned: string) => JSON.stringify([owner, owned]);

/** The parties on the answer's paths for one rule, and its hops as owner→owned pairs. */
function pathsOf(verdict: DrawnAnswer['ofac'] | DrawnAnswer['bis']) {
  const parties = new Set<string>();
  const hops = new Set<string>();
  for (const path of verdict.paths) {
    path.hops.forEach((hop, i) => {
      parties.add(hop.entity);
      const next = path.hops[i + 1];
      if (next) hops.add(pairKey(hop.entity, next.entity));
    });
  }
  return { parties, hops };
}

/** For each party, the number of its ownership cycle (a strongly connected component of the stakes in effect), or -1. */
function cycleOf(request: DrawnRequest, asOf: string, indexOf: ReadonlyMap<string, number>): Int32Array {
  const query: OwnershipQuery = {
    target: request.target,
    asOf,
    entities: request.entities.map((e) => ({ id: e.id, type: e.type })),
    ownerships: request.ownerships.filter((l) => indexOf.has(l.owner) && indexOf.has(l.owned)),
  };
  const graph = buildGraph(query);
  const component = new Int32Array(graph.size).fill(-1);
  ownershipCycles(graph, new Uint8Array(graph.size).fill(1)).forEach((members, c) => {
    for (const v of members) component[v] = c;
  });
  return component;
}

export function graphFacts(request: DrawnRequest, answer: DrawnAnswer): GraphFacts {
  const indexOf = new Map<string, number>();
  request.entities.forEach((e, i) => {
    if (!indexOf.has(e.id)) indexOf.set(e.id, i);
  });
  const verdicts = new Map(answer.entities.map((v) => [v.id, v]));
  const ofac = pathsOf(answer.ofac);
  const bis = pathsOf(answer.bis);
  const cycle = cycleOf(request, answer.as_of, indexOf);
  const inCycleWarning = new Set(answer.warnings.filter((w) => w.code === 'cycle_detected').flatMap((w) => w.entities ?? []));

  const parties = request.entities.map((entity, i): PartyFacts => {
    const verdict = verdicts.get(entity.id);
    const inCycle = (cycle[i] as number) >= 0 || inCycleWarning.has(entity.id);
    // The answer's designations include those given and those screening found; a party it omits has only those given.
    const marks: ListedMark[] = verdict
      ? verdict.designations.map((d) => ({ list: d.list, programs: d.programs ?? [], source: d.source }))
      : (entity.designations ?? []).map((d) => ({ list: d.list, programs: d.programs ?? [], source: 'given' }));
    return {
      id: entity.id,
      name: entity.name ?? entity.id,
      type: entity.type,
      country: entity.country?.toUpperCase() ?? null,
      marks,
      flags: {
        ...NO_NODE_FLAGS,
        target: entity.id === request.target,
        listed: marks.length > 0,
        ofacBlocked: verdict?.ofac_blocked ?? false,
        bisRestricted: verdict?.bis_restricted ?? false,
        undetermined: verdict ? !verdict.ofac_determinate || !verdict.bis_determinate : false,
        ofacPath: ofac.parties.has(entity.id),
        bisPath: bis.parties.has(entity.id),
        cycle: inCycle,
      },
      status: statusWords(verdict, inCycle),
    };
  });

  const links: LinkFacts[] = [];
  for (const link of request.ownerships) {
    const owner = indexOf.get(link.owner);
    const owned = indexOf.get(link.owned);
    if (owner === undefined || owned === undefined) continue;
    const kind = link.kind ?? 'ownership';
    const otherKind = kind !== 'ownership';
    const notInEffect = !inEffect(link, answer.as_of);
    const counted = !otherKind && !notInEffect;
    const key = pairKey(link.owner, link.owned);
    const flags: EdgeFlags = {
      ofacPath: counted && ofac.hops.has(key),
      bisPath: counted && bis.hops.has(key),
      unknownStake: !otherKind && link.percent === null,
      otherKind,
      cycle: counted && (cycle[owner] as number) >= 0 && cycle[owner] === cycle[owned],
      notInEffect,
      upward: false,
    };
    links.push({ owner, owned, label: linkLabel(link, kind, flags, answer.as_of), flags });
  }

  const warned = new Set<number>();
  for (const warning of answer.warnings) for (const id of warning.entities ?? []) if (indexOf.has(id)) warned.add(indexOf.get(id) as number);
  return { parties, links, target: indexOf.get(request.target) ?? 0, warned };
}

function statusWords(verdict: DrawnAnswer['entities'][number] | undefined, inCycle: boolean): string[] {
  const words: string[] = [];
  if (verdict?.ofac_blocked) words.push('OFAC blocked');
  else if (verdict && !verdict.ofac_determinate) words.push('OFAC undetermined');
  if (verdict?.bis_restricted) words.push('BIS restricted');
  else if (verdict && !verdict.bis_determinate) words.push('BIS undetermined');
  if (inCycle) words.push('cycle ↻');
  return words;
}

/** "30%", "?" when unknown, the kind for a link that is not ownership; the date that leaves it out; ↻ in a cycle. */
function linkLabel(link: DrawnRequest['ownerships'][number], kind: string, flags: EdgeFlags, asOf: string): string {
  let label = flags.otherKind ? kind.replaceAll('_', ' ') : link.percent === null ? '?' : `${link.percent}%`;
  if (flags.notInEffect) label += link.start_date !== undefined && asOf < link.start_date ? ` from ${link.start_date}` : ` until ${link.end_date}`;
  if (flags.cycle) label += ' ↻';
  return label;
}
