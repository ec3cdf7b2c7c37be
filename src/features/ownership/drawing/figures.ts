/**
 * The layout turned into the few shapes both renderers know (rectangles, lines, filled polygons,
 * text), in drawing order: edges, then their labels, then nodes, then the legend. The SVG and the
 * PDF only translate these shapes, so what one draws the other draws too.
 */

import {
  barsInset,
  barsRoom,
  COLOURS,
  edgeGeometry,
  edgeStrokes,
  LEGEND,
  type LegendSample,
  labelRect,
  nodeStyle,
  type Rect,
  SIZES,
  type Stroke,
  TEXT,
  type TextStyle,
} from './drawing-style.ts';
import type { EdgeFlags, LayoutNode, LegendEntry, OwnershipGraphLayout, Point } from './layout-types.ts';
import { lineTops } from './node-labels.ts';

export type Shape =
  | { kind: 'rect'; x: number; y: number; width: number; height: number; radius: number; fill: string | null; stroke: Stroke | null }
  | { kind: 'line'; points: Point[]; stroke: Stroke }
  | { kind: 'polygon'; points: Point[]; fill: string }
  /** A line of text centred on x (or starting at x), its top at `top`, to be kept within `maxWidth`. */
  | { kind: 'text'; x: number; top: number; text: string; style: TextStyle; anchor: 'middle' | 'start'; maxWidth: number };

/** A node, an edge, an edge's label or a legend entry, by its index in the layout. */
export type Figure = { role: 'edge' | 'label' | 'node' | 'legend' | 'note'; index: number; shapes: Shape[] };

export function figures(layout: OwnershipGraphLayout): Figure[] {
  return [
    ...layout.edges.map((edge, index): Figure => ({ role: 'edge', index, shapes: edgeShapes(edge.points, edge.flags) })),
    ...layout.edges.map((edge, index): Figure => ({ role: 'label', index, shapes: labelShapes(edge.label, edge.labelAt) })),
    ...layout.nodes.map((node, index): Figure => ({ role: 'node', index, shapes: nodeShapes(node) })),
    ...layout.legend.entries.map((entry, index): Figure => ({ role: 'legend', index, shapes: legendShapes(entry) })),
    {
      role: 'note',
      index: 0,
      shapes: [{ kind: 'text', x: layout.note.x, top: layout.note.y, text: layout.note.text, style: TEXT.note, anchor: 'start', maxWidth: Infinity }],
    },
  ];
}

function edgeShapes(points: readonly Point[], flags: EdgeFlags): Shape[] {
  const strokes = edgeStrokes(flags);
  const { line, head, colour } = edgeGeometry(points, strokes);
  return [...strokes.map((stroke): Shape => ({ kind: 'line', points: line, stroke })), { kind: 'polygon', points: head, fill: colour }];
}

function labelShapes(text: string, at: Point): Shape[] {
  const box = labelRect(text, at);
  return [
    { kind: 'rect', ...box, radius: 2, fill: COLOURS.paper, stroke: null },
    { kind: 'text', x: at.x, top: box.y + SIZES.labelPadY, text, style: TEXT.edge, anchor: 'middle', maxWidth: box.width },
  ];
}

function boxShapes(node: Pick<LayoutNode, 'kind' | 'type' | 'flags'>, box: Rect): Shape[] {
  const style = nodeStyle(node);
  const { x, y, width, height } = box;
  const shapes: Shape[] = [{ kind: 'rect', x, y, width, height, radius: style.radius, fill: style.fill, stroke: null }];
  for (const ring of style.rings) {
    const { inset, ...stroke } = ring;
    shapes.push({
      kind: 'rect',
      x: x + inset,
      y: y + inset,
      width: width - 2 * inset,
      height: height - 2 * inset,
      radius: Math.max(0, style.radius - inset),
      fill: null,
      stroke,
    });
  }
  const barLeft = barsInset(style);
  const barTop = Math.max(barLeft, style.radius / 2 + 2);
  style.bars.forEach((fill, i) => {
    const barX = x + barLeft + i * (SIZES.pathBar + 2);
    shapes.push({ kind: 'rect', x: barX, y: y + barTop, width: SIZES.pathBar, height: height - 2 * barTop, radius: 0, fill, stroke: null });
  });
  return shapes;
}

function nodeShapes(node: LayoutNode): Shape[] {
  const shapes = boxShapes(node, node);
  const room = barsRoom(nodeStyle(node));
  const tops = lineTops(node.lines, node.y);
  node.lines.forEach((line, i) => {
    const maxWidth = node.width - 2 * (SIZES.nodePadX + room);
    shapes.push({ kind: 'text', x: node.x + node.width / 2, top: tops[i] as number, text: line.text, style: TEXT[line.style], anchor: 'middle', maxWidth });
  });
  return shapes;
}

function legendShapes(entry: LegendEntry): Shape[] {
  const { width, height } = SIZES.legendSample;
  const sample = LEGEND.find((l) => l.key === entry.key)?.sample as LegendSample;
  const shapes =
    'node' in sample
      ? boxShapes(sample.node, { x: entry.x + 5, y: entry.y + 4, width: width - 10, height: height - 8 })
      : edgeShapes(
          [
            { x: entry.x, y: entry.y + height / 2 },
            { x: entry.x + width, y: entry.y + height / 2 },
          ],
          sample.edge,
        );
  const top = entry.y + (height - TEXT.legend.size) / 2 - 1;
  shapes.push({ kind: 'text', x: entry.x + width + SIZES.legendGap.text, top, text: entry.label, style: TEXT.legend, anchor: 'start', maxWidth: Infinity });
  return shapes;
}
