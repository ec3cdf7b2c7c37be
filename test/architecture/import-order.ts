/**
 * The import graph of src/, and what breaks a declared order of its parts (test/architecture/layers.ts):
 * a part in no layer, an import that points up or sideways (into the importer's own layer or one
 * above it), and a cycle of parts. Each problem names the imports that make it, file by file.
 * Inside a part, files import one way too: a cycle of files is named by its imports (fileCycles).
 * Type-only imports count: a type taken from a part is a dependency on it as much as a value is.
 */
import fs from 'node:fs';
import path from 'node:path';

/** One import: the importing file and the file it names (both relative to the repository). */
export type Import = { from: string; to: string };

/** Parts by layer, lowest first: a part imports only parts of layers below its own. */
export type Layers = readonly (readonly string[])[];

const STATIC = /^\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/gm;
const BARE = /^\s*import\s+['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** What `file` imports: relative paths resolved against it, packages as named. */
export function importsOf(file: string, text = fs.readFileSync(file, 'utf8')): string[] {
  return [STATIC, BARE, DYNAMIC].flatMap((pattern) =>
    [...text.matchAll(pattern)].map((m) => {
      const target = m[1] as string;
      return target.startsWith('.') ? path.join(path.dirname(file), target) : target;
    }),
  );
}

/** The imports between files of `files` (packages and node: modules left out). */
export function importGraph(files: readonly string[]): Import[] {
  const known = new Set(files);
  return files.flatMap((from) =>
    importsOf(from)
      .filter((to) => known.has(to))
      .map((to) => ({ from, to })),
  );
}

/** What is wrong with the graph under these layers, one line per problem; [] when it follows them. */
export function orderProblems(imports: readonly Import[], layers: Layers, partOf: (file: string) => string): string[] {
  const layerOf = new Map(layers.flatMap((parts, layer) => parts.map((part) => [part, layer] as const)));
  const problems: string[] = [];
  const files = [...new Set(imports.flatMap((i) => [i.from, i.to]))];
  const undeclared = [...new Set(files.map(partOf).filter((part) => !layerOf.has(part)))].sort();
  problems.push(...undeclared.map((part) => `${part} is in no layer: declare where it belongs`));

  const between = imports.filter((i) => partOf(i.from) !== partOf(i.to));
  for (const i of between) {
    const [from, to] = [partOf(i.from), partOf(i.to)];
    const [above, below] = [layerOf.get(from), layerOf.get(to)];
    if (above === undefined || below === undefined || below < above) continue;
    const way = below === above ? `sideways (both in layer ${above})` : `upward (layer ${above} to layer ${below})`;
    problems.push(`${i.from} imports ${i.to}: ${from} → ${to} points ${way}`);
  }
  problems.push(...cyclesOf(between, partOf));
  return problems;
}

/** Each cycle of parts, once, as the loop of parts and one import for each of its steps. */
function cyclesOf(imports: readonly Import[], partOf: (file: string) => string): string[] {
  return loops(imports, partOf).map((steps) => {
    const parts = [...steps.map((i) => partOf(i.from)), partOf((steps[0] as Import).from)];
    return `cycle ${parts.join(' → ')}: ${steps.map((i) => `${i.from} imports ${i.to}`).join('; ')}`;
  });
}

/**
 * Each cycle of files, once, as the files in the order they import each other (from the first in
 * sort order, the shortest way back to it); [] when the imports point one way. Another cycle
 * among the same files shows once this one is broken.
 */
export function fileCycles(imports: readonly Import[]): string[] {
  return loops(imports, (file) => file).map((steps) => `${(steps[0] as Import).from} imports ${steps.map((i) => i.to).join(', which imports ')}`);
}

/**
 * One loop for each group of nodes that reach each other (a node is what `nodeOf` makes of a
 * file: its part, or the file itself), as the imports that make its steps, one per step.
 */
function loops(imports: readonly Import[], nodeOf: (file: string) => string): Import[][] {
  const edges = new Map<string, Map<string, Import>>();
  for (const i of imports) {
    const next = edges.get(nodeOf(i.from)) ?? new Map<string, Import>();
    if (!next.has(nodeOf(i.to))) next.set(nodeOf(i.to), i);
    edges.set(nodeOf(i.from), next);
  }
  return stronglyConnected(edges)
    .filter((component) => component.length >= 2)
    .map((component) => {
      const start = component.slice().sort()[0] as string;
      const loop = pathBack(start, edges, new Set(component));
      return loop.slice(1).map((to, n) => edges.get(loop[n] as string)?.get(to) as Import);
    });
}

/** The nodes of each strongly connected component (Tarjan's algorithm). */
function stronglyConnected(edges: Map<string, Map<string, Import>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (stack.includes(next)) low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
    }
    if (low.get(node) === index.get(node)) components.push(stack.splice(stack.indexOf(node)));
  };
  for (const node of [...edges.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

/** A shortest loop of nodes from `start` back to itself through `inside` (which holds one, being strongly connected). */
function pathBack(start: string, edges: Map<string, Map<string, Import>>, inside: Set<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const next of [...(edges.get(node)?.keys() ?? [])].sort()) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const loop = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at)) loop.splice(1, 0, at);
        return [...loop, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start];
}
