/**
 * Everything the two renderers must agree on: colours, type, sizes, how a node's flags and an
 * edge's flags become strokes and fills, the arrow heads, and the legend. The SVG and the PDF
 * both draw from these functions, so a change here changes both.
 *
 * Colours are Okabe and Ito's, told apart with the common colour-vision deficiencies, and no
 * meaning rests on colour alone: the OFAC path is a solid thick line, the BIS path a hollow double
 * line; unknown stakes are dashed, other links dotted; cycles carry ↻ in their labels; a node
 * says its status in words.
 */
import type { EdgeFlags, LabelLine, LegendKey, NodeFlags, Point } from './layout-types.ts';
import { textWidth } from './text-measure.ts';

export const COLOURS = {
  paper: '#ffffff',
  ink: '#1a1a1a',
  muted: '#555555',
  edge: '#4d4d4d',
  /** Vermillion: OFAC. */
  ofac: '#d55e00',
  /** Blue: BIS. */
  bis: '#0072b2',
  /** Reddish purple: cycles. */
  cycle: '#cc79a7',
  notInEffect: '#9a9a9a',
  listedFill: '#fff2c2',
  collapsedFill: '#eeeeee',
  collapsedStroke: '#6b6b6b',
} as const;

/** Asked for first by the SVG; the PDF embeds DejaVu Sans (src/evidence/evidence-fonts.ts). */
export const FONT_FAMILY = 'DejaVu Sans, Verdana, Arial, sans-serif';
/** Where a line's baseline sits below its top, in ems (DejaVu Sans's ascent). */
export const ASCENT = 0.93;
export const LINE_HEIGHT = 1.3;

export type TextStyle = { size: number; bold: boolean; colour: string };
export const TEXT: Record<LabelLine['style'] | 'edge' | 'legend' | 'note', TextStyle> = {
  name: { size: 11, bold: true, colour: COLOURS.ink },
  detail: { size: 9, bold: false, colour: COLOURS.muted },
  status: { size: 9, bold: true, colour: COLOURS.ink },
  mark: { size: 9, bold: false, colour: COLOURS.ink },
  edge: { size: 9, bold: false, colour: COLOURS.ink },
  legend: { size: 9, bold: false, colour: COLOURS.ink },
  note: { size: 8.5, bold: false, colour: COLOURS.muted },
};

export const SIZES = {
  margin: 24,
  nodePadX: 9,
  nodePadY: 6,
  nodeMinWidth: 100,
  nodeMaxWidth: 230,
  /** Between two nodes of a row. */
  nodeGap: 28,
  /** The room a long edge takes where it passes through a row. */
  dummyWidth: 10,
  /** Between two rows: where edges cross and their labels sit. */
  rowGap: 72,
  /** Edges leave and enter a node straight for this long, so arrow heads point into it. */
  stub: 10,
  labelPadX: 3,
  labelPadY: 1.5,
  /** The bars on a node's left edge marking it on a deciding path. */
  pathBar: 5,
  legendSample: { width: 36, height: 18 },
  legendGap: { x: 22, y: 8, text: 7 },
  legendTop: 28,
  /** Between the legend and the note under it. */
  noteGap: 12,
  legendMinWidth: 640,
} as const;

/** `dash`: drawn and skipped lengths (two values, as both SVG and pdfkit take them). */
export type Stroke = { colour: string; width: number; dash: [number, number] | null };
type Ring = Stroke & { /** Positive inside the box, negative outside. */ inset: number };
export type NodeStyle = { fill: string; radius: number; rings: Ring[]; bars: string[] };

type StyledNode = { kind: 'party' | 'collapsed'; type: 'person' | 'entity' | null; flags: NodeFlags };

export function nodeStyle(node: StyledNode): NodeStyle {
  if (node.kind === 'collapsed') {
    return { fill: COLOURS.collapsedFill, radius: 3, rings: [{ inset: 0, colour: COLOURS.collapsedStroke, width: 1.2, dash: [4, 3] }], bars: [] };
  }
  const { flags } = node;
  const rings: Ring[] = [];
  if (flags.target) rings.push({ inset: -5, colour: COLOURS.ink, width: 1.5, dash: null });
  if (flags.ofacBlocked) rings.push({ inset: 0, colour: COLOURS.ofac, width: 3, dash: null });
  if (flags.bisRestricted) rings.push({ inset: flags.ofacBlocked ? 3.5 : 0, colour: COLOURS.bis, width: flags.ofacBlocked ? 2 : 3, dash: null });
  if (!flags.ofacBlocked && !flags.bisRestricted) rings.push({ inset: 0, colour: COLOURS.ink, width: 1, dash: null });
  const bars = [...(flags.ofacPath ? [COLOURS.ofac] : []), ...(flags.bisPath ? [COLOURS.bis] : [])];
  return { fill: flags.listed ? COLOURS.listedFill : COLOURS.paper, radius: node.type === 'person' ? 10 : 3, rings, bars };
}

/** How far in from the box's edge the path bars start: inside every ring, so no ring runs over them. */
export const barsInset = (style: NodeStyle) => 1 + Math.max(2, ...style.rings.filter((r) => r.inset >= 0).map((r) => r.inset + r.width / 2));

/** The room the path bars take on each side of a node (its text stays centred between them). */
export const barsRoom = (style: NodeStyle) => (style.bars.length === 0 ? 0 : barsInset(style) + style.bars.length * (SIZES.pathBar + 2));

/** The strokes an edge is drawn with, in order (each over the one before). */
export function edgeStrokes(flags: EdgeFlags): Stroke[] {
  const dash: Stroke['dash'] = flags.unknownStake ? [6, 4] : flags.otherKind ? [2, 3] : null;
  if (flags.ofacPath && flags.bisPath) {
    return [
      { colour: COLOURS.ofac, width: 9, dash },
      { colour: COLOURS.bis, width: 5.5, dash },
      { colour: COLOURS.paper, width: 1.6, dash },
    ];
  }
  if (flags.ofacPath) return [{ colour: COLOURS.ofac, width: 4.5, dash }];
  if (flags.bisPath) {
    return [
      { colour: COLOURS.bis, width: 5.5, dash },
      { colour: COLOURS.paper, width: 1.6, dash },
    ];
  }
  const colour = flags.notInEffect ? COLOURS.notInEffect : flags.cycle ? COLOURS.cycle : COLOURS.edge;
  return [{ colour, width: flags.cycle ? 2.2 : 1.3, dash }];
}

/** The line to stroke (stopping inside the arrow head, so a thick line never pokes past its tip) and the head. */
export function edgeGeometry(points: readonly Point[], strokes: readonly Stroke[]): { line: Point[]; head: Point[]; colour: string } {
  const width = Math.max(...strokes.map((s) => s.width));
  const tip = points[points.length - 1] as Point;
  let from = points[points.length - 2] ?? tip;
  for (let i = points.length - 2; i >= 0 && from.x === tip.x && from.y === tip.y; i--) from = points[i] as Point;
  const length = Math.hypot(tip.x - from.x, tip.y - from.y) || 1;
  const [ux, uy] = [(tip.x - from.x) / length, (tip.y - from.y) / length];
  const headLength = 7 + 0.8 * width;
  const half = 3.5 + 0.6 * width;
  const base = { x: tip.x - ux * headLength, y: tip.y - uy * headLength };
  const head = [tip, { x: base.x - uy * half, y: base.y + ux * half }, { x: base.x + uy * half, y: base.y - ux * half }];
  const stop = { x: tip.x - ux * headLength * 0.7, y: tip.y - uy * headLength * 0.7 };
  return { line: [...points.slice(0, -1), stop], head, colour: (strokes[0] as Stroke).colour };
}

export type Rect = { x: number; y: number; width: number; height: number };

/** The box behind an edge's label (paper-coloured, so the label reads over the lines it crosses). */
export function labelRect(text: string, at: Point): Rect {
  const width = textWidth(text, TEXT.edge.size, TEXT.edge.bold) + 2 * SIZES.labelPadX;
  const height = TEXT.edge.size * LINE_HEIGHT + 2 * SIZES.labelPadY;
  return { x: at.x - width / 2, y: at.y - height / 2, width, height };
}

export const NO_NODE_FLAGS: NodeFlags = {
  target: false,
  listed: false,
  ofacBlocked: false,
  bisRestricted: false,
  undetermined: false,
  ofacPath: false,
  bisPath: false,
  cycle: false,
};
const NO_EDGE_FLAGS: EdgeFlags = {
  ofacPath: false,
  bisPath: false,
  unknownStake: false,
  otherKind: false,
  cycle: false,
  notInEffect: false,
  upward: false,
};

export type LegendSample = { node: StyledNode } | { edge: EdgeFlags };

/** The legend, in the order it is drawn; each sample is drawn with nodeStyle or edgeStrokes like the graph. */
export const LEGEND: readonly { key: LegendKey; label: string; sample: LegendSample }[] = [
  { key: 'target', label: 'Target of the check', sample: { node: { kind: 'party', type: 'entity', flags: { ...NO_NODE_FLAGS, target: true } } } },
  {
    key: 'listed',
    label: 'On a list (lists and programs named)',
    sample: { node: { kind: 'party', type: 'entity', flags: { ...NO_NODE_FLAGS, listed: true } } },
  },
  { key: 'ofac-blocked', label: 'Blocked under OFAC', sample: { node: { kind: 'party', type: 'entity', flags: { ...NO_NODE_FLAGS, ofacBlocked: true } } } },
  {
    key: 'bis-restricted',
    label: 'Restricted under BIS',
    sample: { node: { kind: 'party', type: 'entity', flags: { ...NO_NODE_FLAGS, bisRestricted: true } } },
  },
  { key: 'ofac-path', label: 'Path deciding the OFAC verdict', sample: { edge: { ...NO_EDGE_FLAGS, ofacPath: true } } },
  { key: 'bis-path', label: 'Path deciding the BIS verdict', sample: { edge: { ...NO_EDGE_FLAGS, bisPath: true } } },
  { key: 'unknown-stake', label: 'Stake of unknown size (?)', sample: { edge: { ...NO_EDGE_FLAGS, unknownStake: true } } },
  { key: 'other-kind', label: 'Control or other link: not ownership', sample: { edge: { ...NO_EDGE_FLAGS, otherKind: true } } },
  { key: 'cycle', label: 'In an ownership cycle (↻)', sample: { edge: { ...NO_EDGE_FLAGS, cycle: true } } },
  { key: 'not-in-effect', label: 'Not in effect on the date of the check', sample: { edge: { ...NO_EDGE_FLAGS, notInEffect: true } } },
  { key: 'collapsed', label: 'Parties collapsed: no bearing on the verdict', sample: { node: { kind: 'collapsed', type: null, flags: NO_NODE_FLAGS } } },
  { key: 'person', label: 'Person (rounded corners)', sample: { node: { kind: 'party', type: 'person', flags: NO_NODE_FLAGS } } },
];
