/**
 * Which parties are drawn as themselves and which stand together in a "+k entities" node, so that
 * a graph of a few hundred parties reads. Parties are ranked by how much they bear on the verdict:
 *
 *   0. the target and every party on a deciding path: always drawn;
 *   1. listed parties, and parties blocked, restricted or undetermined under either rule;
 *   2. what ties those to the target or qualifies the answer: the owners between a rank-1 party and
 *      the target, parties a warning names, the target's owners in a cycle, and the holders of
 *      unknown stakes and of control links into the parties above;
 *   3. the rest: minority holders, subsidiaries and bystanders that change nothing.
 *
 * Ranks 0 to 2 are drawn, best rank first, while they and their groups fit the node budget; rank 0
 * always. Every other party joins a group hanging from the drawn party it is nearest to (on its
 * owners' side or on its holdings' side). When even rank 0 and its groups pass the budget, the
 * groups merge into one per side. A group of one is drawn as the party itself: it costs the same node.
 */
import type { GraphFacts, LinkFacts } from './graph-facts.ts';
import type { EdgeFlags } from './layout-types.ts';

type Side = 'owners' | 'owned' | 'apart';
export type DrawnNode = { kind: 'party'; party: number } | { kind: 'collapsed'; members: number[]; side: Side };
type DrawnEdge = { from: number; to: number; label: string; links: number; flags: EdgeFlags };
export type DrawnGraph = { nodes: DrawnNode[]; edges: DrawnEdge[]; collapsed: number };

const UNRANKED = 3;

type Adjacency = { start: Int32Array; link: Int32Array };

/** The links of each party, by owner (`down`) or by owned party (`up`): compressed arrays of link indices. */
function adjacency(size: number, links: readonly LinkFacts[], end: 'owner' | 'owned'): Adjacency {
  const start = new Int32Array(size + 1);
  for (const l of links) start[l[end] + 1] = (start[l[end] + 1] as number) + 1;
  for (let v = 0; v < size; v++) start[v + 1] = (start[v + 1] as number) + (start[v] as number);
  const fill = start.slice(0, size);
  const link = new Int32Array(links.length);
  links.forEach((l, i) => {
    link[fill[l[end]] as number] = i;
    fill[l[end]] = (fill[l[end]] as number) + 1;
  });
  return { start, link };
}

/** Every party reachable from `from` along `adj` (owners with `up`, holdings with `down`). */
function reach(from: number[], adj: Adjacency, links: readonly LinkFacts[], next: 'owner' | 'owned', size: number): Uint8Array {
  const seen = new Uint8Array(size);
  const queue = [...from];
  for (const v of from) seen[v] = 1;
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head] as number;
    for (let e = adj.start[v] as number; e < (adj.start[v + 1] as number); e++) {
      const w = (links[adj.link[e] as number] as LinkFacts)[next];
      if (!seen[w]) {
        seen[w] = 1;
        queue.push(w);
      }
    }
  }
  return seen;
}

function rank(facts: GraphFacts, up: Adjacency, down: Adjacency): Uint8Array {
  const { parties, links, target } = facts;
  const size = parties.length;
  const ranks = new Uint8Array(size).fill(UNRANKED);
  const better = (v: number, r: number) => {
    if ((ranks[v] as number) > r) ranks[v] = r;
  };
  parties.forEach((p, v) => {
    if (p.flags.target || p.flags.ofacPath || p.flags.bisPath) better(v, 0);
    else if (p.flags.listed || p.flags.ofacBlocked || p.flags.bisRestricted || p.flags.undetermined) better(v, 1);
  });
  const owners = reach([target], up, links, 'owner', size);
  const heldByRanked = reach(
    parties.flatMap((_, v) => ((ranks[v] as number) <= 1 ? [v] : [])),
    down,
    links,
    'owned',
    size,
  );
  for (let v = 0; v < size; v++) {
    if ((owners[v] && heldByRanked[v]) || facts.warned.has(v) || (owners[v] && parties[v]?.flags.cycle)) better(v, 2);
  }
  for (const l of links) if ((l.flags.unknownStake || l.flags.otherKind) && owners[l.owned] && (ranks[l.owned] as number) <= 2) better(l.owner, 2);
  return ranks;
}

/** Each collapsed party's group key: the drawn party it is nearest to (breadth first, in drawing order) and on which side. */
function groupKeys(facts: GraphFacts, drawn: readonly number[], isDrawn: Uint8Array, up: Adjacency, down: Adjacency, perAnchor: boolean) {
  const size = facts.parties.length;
  const anchor = new Int32Array(size).fill(-1);
  const side: Side[] = new Array(size).fill('apart');
  const queue = [...drawn];
  for (const v of drawn) anchor[v] = v;
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head] as number;
    const visit = (w: number, sideFromDrawn: Side) => {
      if (anchor[w] !== -1) return;
      anchor[w] = anchor[v] as number;
      side[w] = isDrawn[v] ? sideFromDrawn : (side[v] as Side);
      queue.push(w);
    };
    for (let e = up.start[v] as number; e < (up.start[v + 1] as number); e++) visit((facts.links[up.link[e] as number] as LinkFacts).owner, 'owners');
    for (let e = down.start[v] as number; e < (down.start[v + 1] as number); e++) visit((facts.links[down.link[e] as number] as LinkFacts).owned, 'owned');
  }
  const groups = new Map<string, { members: number[]; side: Side }>();
  for (let v = 0; v < size; v++) {
    if (isDrawn[v]) continue;
    const key = perAnchor ? `${anchor[v]}:${side[v]}` : (side[v] as Side);
    const group = groups.get(key);
    if (group) group.members.push(v);
    else groups.set(key, { members: [v], side: side[v] as Side });
  }
  return [...groups.values()];
}

export function collapseGraph(facts: GraphFacts, maxNodes: number): DrawnGraph {
  const size = facts.parties.length;
  const up = adjacency(size, facts.links, 'owned');
  const down = adjacency(size, facts.links, 'owner');
  const ranks = rank(facts, up, down);
  const byRank: number[] = [];
  for (let r = 0; r < UNRANKED; r++) for (let v = 0; v < size; v++) if (ranks[v] === r) byRank.push(v);
  const essential = byRank.filter((v) => ranks[v] === 0).length;

  const attempt = (keep: number, perAnchor: boolean) => {
    const drawn = byRank.slice(0, keep);
    const isDrawn = new Uint8Array(size);
    for (const v of drawn) isDrawn[v] = 1;
    const groups = groupKeys(facts, drawn, isDrawn, up, down, perAnchor);
    return { isDrawn, groups, fits: drawn.length + groups.length <= maxNodes };
  };
  // The most parties drawn, best rank first, such that they and their groups fit: found by bisection.
  let low = essential;
  let high = Math.max(essential, Math.min(byRank.length, maxNodes));
  let best = attempt(high, true);
  if (!best.fits) {
    best = attempt(low, true);
    while (best.fits && high - low > 1) {
      const middle = Math.floor((low + high) / 2);
      const tried = attempt(middle, true);
      if (tried.fits) [low, best] = [middle, tried];
      else high = middle;
    }
  }
  if (!best.fits) best = attempt(essential, false);
  return drawnGraph(facts, best.isDrawn, best.groups);
}

function drawnGraph(facts: GraphFacts, isDrawn: Uint8Array, groups: { members: number[]; side: Side }[]): DrawnGraph {
  const nodes: DrawnNode[] = [];
  const nodeOf = new Int32Array(facts.parties.length).fill(-1);
  for (const group of groups) if (group.members.length === 1) isDrawn[group.members[0] as number] = 1;
  for (let v = 0; v < facts.parties.length; v++) if (isDrawn[v]) nodeOf[v] = nodes.push({ kind: 'party', party: v }) - 1;
  let collapsed = 0;
  for (const group of groups) {
    if (group.members.length === 1) continue;
    const at = nodes.push({ kind: 'collapsed', ...group }) - 1;
    for (const v of group.members) nodeOf[v] = at;
    collapsed += group.members.length;
  }

  const edges: DrawnEdge[] = [];
  const bundles = new Map<string, LinkFacts[]>();
  for (const link of facts.links) {
    const from = nodeOf[link.owner] as number;
    const to = nodeOf[link.owned] as number;
    // Links inside a group, and between two groups, join parties that bear on nothing: drawing them would only add lines.
    if (from === to || (!isDrawn[link.owner] && !isDrawn[link.owned])) continue;
    if (isDrawn[link.owner] && isDrawn[link.owned]) edges.push({ from, to, label: link.label, links: 1, flags: link.flags });
    else {
      const key = `${from}>${to}`;
      const bundle = bundles.get(key);
      if (bundle) bundle.push(link);
      else bundles.set(key, [link]);
    }
  }
  for (const bundle of bundles.values()) edges.push(bundleEdge(bundle, nodeOf));
  return { nodes, edges, collapsed };
}

/** One edge for the links between a group and another node: a single link keeps its own label and marks. */
function bundleEdge(bundle: LinkFacts[], nodeOf: Int32Array): DrawnEdge {
  const first = bundle[0] as LinkFacts;
  const ends = { from: nodeOf[first.owner] as number, to: nodeOf[first.owned] as number };
  if (bundle.length === 1) return { ...ends, label: first.label, links: 1, flags: first.flags };
  const all = (flag: keyof EdgeFlags) => bundle.every((l) => l.flags[flag]);
  const noun = bundle.some((l) => l.flags.otherKind) ? 'links' : 'stakes';
  return {
    ...ends,
    label: `${bundle.length} ${noun}`,
    links: bundle.length,
    flags: {
      ofacPath: false,
      bisPath: false,
      unknownStake: all('unknownStake'),
      otherKind: all('otherKind'),
      cycle: false,
      notInEffect: all('notInEffect'),
      upward: false,
    },
  };
}
