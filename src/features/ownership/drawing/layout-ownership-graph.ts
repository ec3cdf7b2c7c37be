/**
 * A stored ownership check laid out as a picture: who is drawn and who is collapsed
 * (collapse.ts), rows and order (layering.ts), coordinates and routes (placement.ts), and the
 * legend below. Pure: the same request and answer always give the same layout, which both
 * renderers draw (ownership-graph-svg.ts, ownership-graph-pdf.ts).
 */
import { collapseGraph, type DrawnGraph } from './collapse.ts';
import { LINE_HEIGHT, NO_NODE_FLAGS, nodeStyle, SIZES, TEXT } from './drawing-style.ts';
import { type GraphFacts, graphFacts } from './graph-facts.ts';
import { layerGraph } from './layering.ts';
import {
  DEFAULT_MAX_NODES,
  type DrawnAnswer,
  type DrawnRequest,
  type LayoutEdge,
  type LayoutNode,
  type LayoutOptions,
  type OwnershipGraphLayout,
} from './layout-types.ts';
import { layoutLegend } from './legend-layout.ts';
import { groupLines, groupName, partyLines, sizeNode } from './node-labels.ts';
import { placeGraph } from './placement.ts';

export function layoutOwnershipGraph(request: DrawnRequest, answer: DrawnAnswer, options: LayoutOptions = {}): OwnershipGraphLayout {
  const facts = graphFacts(request, answer);
  const drawn = collapseGraph(facts, options.maxNodes ?? DEFAULT_MAX_NODES);
  const nodes = drawn.nodes.map((node): LayoutNode => {
    if (node.kind === 'collapsed') {
      const sized = sizeNode(groupLines(node, facts.parties), nodeStyle({ kind: 'collapsed', type: null, flags: NO_NODE_FLAGS }));
      const members = node.members.map((v) => facts.parties[v]?.id as string);
      const name = groupName(node.members, facts.parties);
      return { entity: null, kind: 'collapsed', name, type: null, country: null, marks: [], flags: NO_NODE_FLAGS, members, layer: 0, x: 0, y: 0, ...sized };
    }
    const party = facts.parties[node.party] as GraphFacts['parties'][number];
    const sized = sizeNode(partyLines(party), nodeStyle({ kind: 'party', type: party.type, flags: party.flags }));
    const { id, name, type, country, marks, flags } = party;
    return { entity: id, kind: 'party', name, type, country, marks, flags, members: [], layer: 0, x: 0, y: 0, ...sized };
  });
  const root = drawn.nodes.findIndex((node) => node.kind === 'party' && node.party === facts.target);
  const layered = layerGraph(nodes.length, drawn.edges, Math.max(0, root));
  const pathsFirst = drawn.edges.map((_, e) => e).sort((a, b) => pathRank(drawn, a) - pathRank(drawn, b) || a - b);
  const placed = placeGraph(
    layered,
    nodes,
    drawn.edges.map((e) => e.label),
    pathsFirst,
  );

  const width = Math.ceil(Math.max(placed.width, SIZES.legendMinWidth + 2 * SIZES.margin));
  // A graph narrower than the legend is centred above it.
  const shift = Math.round((width - placed.width) / 2);
  nodes.forEach((node, v) => {
    node.layer = layered.layerOf[v] as number;
    node.x = (placed.x[v] as number) + shift;
    node.y = placed.y[v] as number;
  });
  const edges = drawn.edges.map(
    (edge, e): LayoutEdge => ({
      ...edge,
      flags: { ...edge.flags, upward: layered.upward[e] as boolean },
      points: (placed.points[e] ?? []).map((p) => ({ x: p.x + shift, y: p.y })),
      labelAt: { x: (placed.labelAt[e]?.x as number) + shift, y: placed.labelAt[e]?.y as number },
    }),
  );
  const legend = layoutLegend(placed.height - SIZES.margin + SIZES.legendTop, width);
  const targetName = facts.parties[facts.target]?.name ?? request.target;
  const parties = facts.parties.length;
  const groups = nodes.filter((n) => n.kind === 'collapsed').length;
  const note = {
    text: `${parties - drawn.collapsed} of ${parties} parties drawn; ${drawn.collapsed} collapsed in ${groups} group${groups === 1 ? '' : 's'}.`,
    x: SIZES.margin,
    y: legend.y + legend.height + SIZES.noteGap,
  };
  return {
    target: request.target,
    as_of: answer.as_of,
    title: `Ownership of ${targetName} on ${answer.as_of}`,
    description: describe(answer, { parties, drawn: parties - drawn.collapsed, collapsed: drawn.collapsed }),
    nodes,
    edges,
    legend,
    note,
    counts: { parties, drawn: parties - drawn.collapsed, collapsed: drawn.collapsed, groups },
    width,
    height: Math.ceil(note.y + TEXT.note.size * LINE_HEIGHT + SIZES.margin),
  };
}

/** Deciding paths are labelled first, so their labels get the best places. */
const pathRank = (drawn: DrawnGraph, e: number) => {
  const flags = drawn.edges[e]?.flags;
  return flags?.ofacPath || flags?.bisPath ? 0 : 1;
};

const MAX_PATHS_DESCRIBED = 3;

/** The verdicts, the deciding paths and what was collapsed, in words: the drawing's accessible description. */
function describe(answer: DrawnAnswer, counts: { parties: number; drawn: number; collapsed: number }): string {
  const held = (percent: number | null) => (percent === null ? '' : `; covered owners hold ${percent}%`);
  const ofac = answer.ofac.blocked ? 'blocked' : answer.ofac.determinate ? 'not blocked' : 'not determinate';
  const bis = answer.bis.restricted ? 'restricted' : answer.bis.determinate ? 'not restricted' : 'not determinate';
  const paths = (rule: string, verdict: DrawnAnswer['ofac'] | DrawnAnswer['bis']) =>
    verdict.paths.length === 0
      ? ''
      : ` ${rule} paths: ${verdict.paths
          .slice(0, MAX_PATHS_DESCRIBED)
          .map((p) => p.text)
          .join('; ')}${verdict.paths.length > MAX_PATHS_DESCRIBED ? `; and ${verdict.paths.length - MAX_PATHS_DESCRIBED} more` : ''}.`;
  const collapsed = counts.collapsed > 0 ? `, ${counts.collapsed} collapsed as bearing on neither verdict` : '';
  return (
    `OFAC: ${ofac}${held(answer.ofac.aggregate_percent)}. BIS (Affiliates Rule ${answer.bis.affiliates_rule_status.replaceAll('_', ' ')}): ${bis}${held(answer.bis.aggregate_percent)}.` +
    `${paths('OFAC', answer.ofac)}${paths('BIS', answer.bis)} ${counts.drawn} of ${counts.parties} parties drawn${collapsed}.`
  );
}
