/**
 * Coordinates for the layered graph (the last step of Sugiyama's drawing):
 *
 * - x: each vertex is pulled toward the mean of its neighbours in the row above, then below, then
 *   both, several times; the row's order and spacing are kept by solving for the closest spaced
 *   positions (isotonic regression, pool-adjacent-violators), so no two nodes ever overlap.
 * - y: rows from the top, each as tall as its tallest node; nodes hang from the row's top.
 * - edges: each leaves its owner through a port on the bottom (ports spread in the order of where
 *   the edges go, so edges into one node do not cross at it), drops to the row's bottom, crosses
 *   the gap, runs straight down through each row it passes (its dummy's slot), and enters the
 *   owned party through a port on top. An edge laid out upwards is the same line walked backwards.
 * - labels: on the crossing nearest the owned party, slid along that segment to avoid labels
 *   already placed in the same gap; deciding paths are labelled first.
 */
import { labelRect, type Rect, SIZES } from './drawing-style.ts';
import type { LayeredGraph } from './layering.ts';
import type { Point } from './layout-types.ts';

const PASSES = 6;
const DUMMY_GAP = 8;
const LABEL_SLIDES = [0.5, 0.3, 0.7, 0.18, 0.82];

type Placed = { x: number[]; y: number[]; points: Point[][]; labelAt: Point[]; width: number; height: number };
type Box = { width: number; height: number };

export function placeGraph(layered: LayeredGraph, boxes: readonly Box[], labels: readonly string[], labelOrder: readonly number[]): Placed {
  const n = boxes.length;
  const widthOf = (v: number) => (v < n ? (boxes[v] as Box).width : SIZES.dummyWidth);
  const centre = horizontal(layered, widthOf, n);
  let left = Infinity;
  for (let v = 0; v < layered.vertexCount; v++) left = Math.min(left, (centre[v] as number) - widthOf(v) / 2);
  for (let v = 0; v < layered.vertexCount; v++) centre[v] = (centre[v] as number) - left + SIZES.margin;

  const rowTop: number[] = [];
  const rowBottom: number[] = [];
  let y = SIZES.margin;
  for (let l = layered.rows.length - 1; l >= 0; l--) {
    const row = layered.rows[l] as number[];
    rowTop[l] = y;
    rowBottom[l] = y + Math.max(0, ...row.filter((v) => v < n).map((v) => (boxes[v] as Box).height));
    y = (rowBottom[l] as number) + SIZES.rowGap;
  }
  const x = boxes.map((box, v) => (centre[v] as number) - box.width / 2);
  const top = boxes.map((_, v) => rowTop[layered.layerOf[v] as number] as number);
  const ports = portsOf(layered, centre, x, boxes);
  const routes = layered.chains.map((chain, e) => route(chain, e, { layered, centre, rowTop, rowBottom, ports, top, boxes }));
  const labelAt = placeLabels(routes, labels, labelOrder);
  let width = 0;
  for (let v = 0; v < layered.vertexCount; v++) width = Math.max(width, (centre[v] as number) + widthOf(v) / 2);
  return { x, y: top, points: routes.map((r) => r.points), labelAt, width: width + SIZES.margin, height: y - SIZES.rowGap + SIZES.margin };
}

/** Centres of every vertex, rows kept in order and spaced. */
function horizontal(layered: LayeredGraph, widthOf: (v: number) => number, n: number): Float64Array {
  const { rows, vertexCount, above, below } = layered;
  const centre = new Float64Array(vertexCount);
  const gap = (a: number, b: number) => (a >= n && b >= n ? DUMMY_GAP : SIZES.nodeGap);
  const separation = (row: number[]) => row.slice(1).map((v, i) => (widthOf(row[i] as number) + widthOf(v)) / 2 + gap(row[i] as number, v));
  const spacing = rows.map(separation);
  rows.forEach((row, l) => {
    let at = 0;
    row.forEach((v, i) => {
      centre[v] = i === 0 ? widthOf(v) / 2 : at + (spacing[l]?.[i - 1] as number);
      at = centre[v] as number;
    });
  });
  for (let pass = 0; pass <= PASSES; pass++) {
    const toward = pass === PASSES ? 'both' : pass % 2 === 0 ? 'above' : 'below';
    const order = toward === 'below' ? rows.map((_, l) => l) : rows.map((_, l) => rows.length - 1 - l);
    for (const l of order) {
      const row = rows[l] as number[];
      const desired = row.map((v) => {
        const adjacent = toward === 'above' ? above[v] : toward === 'below' ? below[v] : [...(above[v] ?? []), ...(below[v] ?? [])];
        if (!adjacent || adjacent.length === 0) return centre[v] as number;
        return adjacent.reduce((sum, w) => sum + (centre[w] as number), 0) / adjacent.length;
      });
      const weights = row.map((v) => (v >= n ? 2 : 1));
      closestSpaced(desired, weights, spacing[l] as number[]).forEach((c, i) => (centre[row[i] as number] = c));
    }
  }
  return centre;
}

/**
 * The positions c (in order) closest to `desired` in weighted least squares with c[i+1] - c[i] >= gaps[i]:
 * subtracting the running sum of gaps turns it into a monotone regression, which pooling adjacent violators solves exactly.
 */
function closestSpaced(desired: readonly number[], weights: readonly number[], gaps: readonly number[]): number[] {
  const offset = [0];
  gaps.forEach((g, i) => offset.push((offset[i] as number) + g));
  const blocks: { value: number; weight: number; count: number }[] = [];
  desired.forEach((d, i) => {
    blocks.push({ value: d - (offset[i] as number), weight: weights[i] as number, count: 1 });
    while (blocks.length > 1 && (blocks[blocks.length - 2] as { value: number }).value > (blocks[blocks.length - 1] as { value: number }).value) {
      const last = blocks.pop() as { value: number; weight: number; count: number };
      const prev = blocks[blocks.length - 1] as { value: number; weight: number; count: number };
      prev.value = (prev.value * prev.weight + last.value * last.weight) / (prev.weight + last.weight);
      prev.weight += last.weight;
      prev.count += last.count;
    }
  });
  return blocks.flatMap((b) => Array.from({ length: b.count }, () => b.value)).map((y, i) => y + (offset[i] as number));
}

type Ports = { bottom: Map<number, number>[]; top: Map<number, number>[] };

/** Where each edge leaves (bottom) and enters (top) each node: spread over the middle of its side, in the order of the other ends. */
function portsOf(layered: LayeredGraph, centre: Float64Array, x: number[], boxes: readonly Box[]): Ports {
  const bottom: [number, number][][] = boxes.map(() => []);
  const top: [number, number][][] = boxes.map(() => []);
  layered.chains.forEach((chain, e) => {
    bottom[chain[0] as number]?.push([e, centre[chain[1] as number] as number]);
    top[chain[chain.length - 1] as number]?.push([e, centre[chain[chain.length - 2] as number] as number]);
  });
  const spread = (list: [number, number][], v: number) => {
    const box = boxes[v] as Box;
    list.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    return new Map(list.map(([e], i) => [e, (x[v] as number) + box.width * (0.1 + (0.8 * (i + 1)) / (list.length + 1))]));
  };
  return { bottom: bottom.map(spread), top: top.map(spread) };
}

type RouteContext = {
  layered: LayeredGraph;
  centre: Float64Array;
  rowTop: number[];
  rowBottom: number[];
  ports: Ports;
  top: number[];
  boxes: readonly Box[];
};
type Route = { points: Point[]; labelSegment: [Point, Point]; gap: number };

function route(chain: number[], e: number, context: RouteContext): Route {
  const { layered, centre, rowTop, rowBottom, ports, top, boxes } = context;
  const upper = chain[0] as number;
  const lower = chain[chain.length - 1] as number;
  const out = ports.bottom[upper]?.get(e) as number;
  const into = ports.top[lower]?.get(e) as number;
  const layer = (v: number) => layered.layerOf[v] as number;
  const points: Point[] = [
    { x: out, y: (top[upper] as number) + (boxes[upper] as Box).height },
    { x: out, y: (rowBottom[layer(upper)] as number) + SIZES.stub },
  ];
  const crossings: number[] = [];
  for (const dummy of chain.slice(1, -1)) {
    crossings.push(points.length - 1);
    points.push({ x: centre[dummy] as number, y: rowTop[layer(dummy)] as number }, { x: centre[dummy] as number, y: rowBottom[layer(dummy)] as number });
  }
  crossings.push(points.length - 1);
  points.push({ x: into, y: (rowTop[layer(lower)] as number) - SIZES.stub }, { x: into, y: top[lower] as number });
  // The label goes on the crossing next to the owned party: the last one, or the first when the edge runs upwards.
  const upward = layered.upward[e] as boolean;
  const at = (upward ? crossings[0] : crossings[crossings.length - 1]) as number;
  const segment: [Point, Point] = [points[at] as Point, points[at + 1] as Point];
  const gap = upward ? layer(upper) : layer(lower);
  return { points: upward ? points.reverse() : points, labelSegment: segment, gap };
}

function placeLabels(routes: readonly Route[], labels: readonly string[], order: readonly number[]): Point[] {
  const placed = new Map<number, Rect[]>();
  const labelAt: Point[] = routes.map((r) => midpoint(r.labelSegment, 0.5));
  for (const e of order) {
    const r = routes[e] as Route;
    const text = labels[e] as string;
    const inGap = placed.get(r.gap) ?? [];
    const free = LABEL_SLIDES.map((t) => midpoint(r.labelSegment, t)).find((p) => !inGap.some((other) => overlaps(labelRect(text, p), other)));
    const at = free ?? midpoint(r.labelSegment, 0.5);
    labelAt[e] = at;
    inGap.push(labelRect(text, at));
    placed.set(r.gap, inGap);
  }
  return labelAt;
}

const midpoint = ([a, b]: [Point, Point], t: number): Point => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
