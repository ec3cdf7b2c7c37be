/**
 * Where ownership goes round in circles, and who can reach the target at all. Both are linear
 * passes; neither changes the verdict (the covered set handles cycles by itself), they feed the
 * warnings and decide which entities the answer lists.
 */
import type { Adjacency, OwnershipGraph } from './graph.ts';

/** The target and everyone holding a stake in it, directly or through others (any percentage). */
export function ownersOf(graph: OwnershipGraph, target: number): Uint8Array {
  const seen = new Uint8Array(graph.size);
  const queue = new Int32Array(graph.size);
  let count = 0;
  seen[target] = 1;
  queue[count++] = target;
  for (let head = 0; head < count; head++) {
    const v = queue[head] as number;
    const end = graph.up.start[v + 1] as number;
    for (let e = graph.up.start[v] as number; e < end; e++) {
      const owner = graph.up.other[e] as number;
      if (!seen[owner]) {
        seen[owner] = 1;
        queue[count++] = owner;
      }
    }
  }
  return seen;
}

/**
 * The strongly connected components of more than one entity among `within` (Tarjan's algorithm,
 * with an explicit stack so that a chain of 100,000 links does not overflow the call stack).
 * `within` must be closed under "owns" (as `ownersOf` is), so every cycle through it lies in it.
 */
export function ownershipCycles(graph: OwnershipGraph, within: Uint8Array): number[][] {
  const { size } = graph;
  const edges: Adjacency = graph.down;
  const index = new Int32Array(size).fill(-1);
  const low = new Int32Array(size);
  const onStack = new Uint8Array(size);
  const stack: number[] = [];
  const frames: { v: number; e: number }[] = [];
  const cycles: number[][] = [];
  let counter = 0;

  for (let root = 0; root < size; root++) {
    if (!within[root] || (index[root] as number) >= 0) continue;
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    frames.push({ v: root, e: edges.start[root] as number });
    while (frames.length > 0) {
      const frame = frames[frames.length - 1] as { v: number; e: number };
      const { v } = frame;
      if (frame.e < (edges.start[v + 1] as number)) {
        const w = edges.other[frame.e++] as number;
        if (!within[w]) continue;
        if ((index[w] as number) < 0) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          frames.push({ v: w, e: edges.start[w] as number });
        } else if (onStack[w]) low[v] = Math.min(low[v] as number, index[w] as number);
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low[parent.v] = Math.min(low[parent.v] as number, low[v] as number);
      if (low[v] !== index[v]) continue;
      const component: number[] = [];
      let w: number;
      do {
        w = stack.pop() as number;
        onStack[w] = 0;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort((a, b) => a - b));
    }
  }
  return cycles.sort((a, b) => (a[0] as number) - (b[0] as number));
}
