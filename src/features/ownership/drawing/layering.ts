/**
 * Rows and the order within each row (the first two steps of Sugiyama's layered drawing):
 *
 * - Cycles are cut for the layering only: a depth-first walk up from the root (the target) over
 *   "is owned by" marks each link that closes a cycle; that link is laid out upwards and still drawn.
 * - Longest-path layering over what remains: a party owning nothing is in row 0 (the bottom), an
 *   owner one row above the highest party it owns, so the target sits at the bottom with its
 *   owners above it.
 * - A link spanning several rows passes through each row between as a dummy vertex, so it gets a
 *   slot of its own in each and never runs through a node.
 * - Within each row, barycentre sweeps (down, then up, a fixed number of times) reduce crossings;
 *   the order with the fewest crossings seen is kept.
 */

export type LayeredGraph = {
  /** Real vertices are 0…n-1 (the nodes); dummies follow. */
  vertexCount: number;
  layerOf: number[];
  /** Per row, bottom row first: its vertices, left to right. */
  rows: number[][];
  /** Per edge, its vertices from the upper end to the lower end (dummies between). */
  chains: number[][];
  /** Per edge: laid out from the owned party up to its owner, to cut a cycle. */
  upward: boolean[];
  /** Per vertex: the vertices it is joined to in the row above, and in the row below. */
  above: number[][];
  below: number[][];
};

const SWEEPS = 8;

type Edge = { from: number; to: number };

/** Links that close a cycle, walking up from `root` (then from every vertex not yet reached). */
function upwardEdges(n: number, edges: readonly Edge[], root: number): boolean[] {
  const ownersOf: number[][] = Array.from({ length: n }, () => []);
  edges.forEach((e, i) => ownersOf[e.to]?.push(i));
  const state = new Uint8Array(n); // 0 unseen, 1 on the walk's stack, 2 done
  const upward = new Array<boolean>(edges.length).fill(false);
  const roots = [root, ...Array.from({ length: n }, (_, v) => v)];
  for (const start of roots) {
    if (state[start]) continue;
    state[start] = 1;
    const stack: { v: number; next: number }[] = [{ v: start, next: 0 }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as { v: number; next: number };
      const out = ownersOf[frame.v] as number[];
      if (frame.next === out.length) {
        state[frame.v] = 2;
        stack.pop();
        continue;
      }
      const e = out[frame.next++] as number;
      const owner = (edges[e] as Edge).from;
      if (state[owner] === 1) upward[e] = true;
      else if (state[owner] === 0) {
        state[owner] = 1;
        stack.push({ v: owner, next: 0 });
      }
    }
  }
  return upward;
}

/** Longest path to a vertex owning nothing, over the links as laid out (upper → lower). */
function layers(n: number, edges: readonly Edge[], upward: readonly boolean[]): number[] {
  const below = new Int32Array(n);
  const aboveOf: number[][] = Array.from({ length: n }, () => []);
  edges.forEach((e, i) => {
    const [upper, lower] = upward[i] ? [e.to, e.from] : [e.from, e.to];
    below[upper] = (below[upper] as number) + 1;
    aboveOf[lower]?.push(upper);
  });
  const layerOf = new Array<number>(n).fill(0);
  const queue: number[] = [];
  for (let v = 0; v < n; v++) if (below[v] === 0) queue.push(v);
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head] as number;
    for (const upper of aboveOf[v] as number[]) {
      layerOf[upper] = Math.max(layerOf[upper] as number, (layerOf[v] as number) + 1);
      below[upper] = (below[upper] as number) - 1;
      if (below[upper] === 0) queue.push(upper);
    }
  }
  return layerOf;
}

export function layerGraph(n: number, edges: readonly Edge[], root: number): LayeredGraph {
  const upward = upwardEdges(n, edges, root);
  const layerOf = layers(n, edges, upward);
  let vertexCount = n;
  const chains = edges.map((e, i) => {
    const [upper, lower] = upward[i] ? [e.to, e.from] : [e.from, e.to];
    const chain = [upper];
    for (let l = (layerOf[upper] as number) - 1; l > (layerOf[lower] as number); l--) {
      layerOf.push(l);
      chain.push(vertexCount++);
    }
    chain.push(lower);
    return chain;
  });
  const top = Math.max(0, ...layerOf);
  const rows: number[][] = Array.from({ length: top + 1 }, () => []);
  for (let v = 0; v < vertexCount; v++) rows[layerOf[v] as number]?.push(v);
  const { above, below } = neighbours(chains, vertexCount);
  return { vertexCount, layerOf, rows: orderRows(rows, above, below, vertexCount), chains, upward, above, below };
}

/** The neighbours of each vertex in the row above and in the row below. */
function neighbours(chains: readonly number[][], vertexCount: number) {
  const above: number[][] = Array.from({ length: vertexCount }, () => []);
  const below: number[][] = Array.from({ length: vertexCount }, () => []);
  for (const chain of chains) {
    for (let i = 0; i + 1 < chain.length; i++) {
      below[chain[i] as number]?.push(chain[i + 1] as number);
      above[chain[i + 1] as number]?.push(chain[i] as number);
    }
  }
  return { above, below };
}

function orderRows(initial: number[][], above: readonly number[][], below: readonly number[][], vertexCount: number): number[][] {
  const pos = new Float64Array(vertexCount);
  const rows = initial.map((row) => [...row]);
  const place = () => rows.forEach((row) => row.forEach((v, i) => (pos[v] = i)));
  place();
  let best = rows.map((row) => [...row]);
  let fewest = crossings(rows, below, pos);
  const sortBy = (row: number[], adjacent: readonly number[][]) => {
    const key = new Map(row.map((v) => [v, barycentre(adjacent[v] as number[], pos) ?? (pos[v] as number)]));
    row.sort((a, b) => (key.get(a) as number) - (key.get(b) as number) || (pos[a] as number) - (pos[b] as number));
    row.forEach((v, i) => (pos[v] = i));
  };
  for (let sweep = 0; sweep < SWEEPS && fewest > 0; sweep++) {
    for (let l = rows.length - 2; l >= 0; l--) sortBy(rows[l] as number[], above);
    for (let l = 1; l < rows.length; l++) sortBy(rows[l] as number[], below);
    const count = crossings(rows, below, pos);
    if (count < fewest) {
      fewest = count;
      best = rows.map((row) => [...row]);
    }
  }
  return best;
}

function barycentre(adjacent: readonly number[], pos: Float64Array): number | undefined {
  if (adjacent.length === 0) return undefined;
  let sum = 0;
  for (const v of adjacent) sum += pos[v] as number;
  return sum / adjacent.length;
}

/** Crossings between each pair of neighbouring rows: inversions among the segments, counted with a Fenwick tree. */
function crossings(rows: readonly number[][], below: readonly number[][], pos: Float64Array): number {
  let total = 0;
  for (let l = rows.length - 1; l > 0; l--) {
    const segments: [number, number][] = [];
    for (const v of rows[l] as number[]) for (const w of below[v] as number[]) segments.push([pos[v] as number, pos[w] as number]);
    segments.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const size = (rows[l - 1] as number[]).length;
    const tree = new Int32Array(size + 1);
    segments.forEach(([, lower], seen) => {
      let notAfter = 0;
      for (let i = lower + 1; i > 0; i -= i & -i) notAfter += tree[i] as number;
      total += seen - notAfter;
      for (let i = lower + 1; i <= size; i += i & -i) tree[i] = (tree[i] as number) + 1;
    });
  }
  return total;
}
