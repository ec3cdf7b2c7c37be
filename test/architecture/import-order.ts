/**
 * The import graph of src/, and what breaks a declared order of its parts (test/architecture/layers.ts):
 * a part in no layer, an import that points up or sideways (into the importer's own layer or one
 * above it), and a cycle of parts. Each problem names the imports that make it, file by file.
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
  const edges = new Map<string, Map<string, Import>>();
  for (const i of imports) {
    const next = edges.get(partOf(i.from)) ?? new Map<string, Import>();
    if (!next.has(partOf(i.to))) next.set(partOf(i.to), i);
    edges.set(partOf(i.from), next);
  }
  const cycles: string[] = [];
  for (const component of stronglyConnected(edges)) {
    if (component.length < 2) continue;
    const inside = new Set(component);
    const start = component.slice().sort()[0] as string;
    const loop = pathBack(start, edges, inside);
    const steps = loop.slice(1).map((to, n) => edges.get(loop[n] as string)?.get(to) as Import);
    cycles.push(`cycle ${loop.join(' → ')}: ${steps.map((i) => `${i.from} imports ${i.to}`).join('; ')}`);
  }
  return cycles;
}

/** The parts of each strongly connected component (Tarjan's algorithm). */
function stronglyConnected(edges: Map<string, Map<string, Import>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (part: string) => {
    index.set(part, index.size);
    low.set(part, index.get(part) as number);
    stack.push(part);
    for (const next of edges.get(part)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(part, Math.min(low.get(part) as number, low.get(next) as number));
      } else if (stack.includes(next)) low.set(part, Math.min(low.get(part) as number, index.get(next) as number));
    }
    if (low.get(part) === index.get(part)) components.push(stack.splice(stack.indexOf(part)));
  };
  for (const part of [...edges.keys()].sort()) if (!index.has(part)) visit(part);
  return components;
}

/** A shortest loop from `start` back to itself through `inside` (which holds one, being strongly connected). */
function pathBack(start: string, edges: Map<string, Map<string, Import>>, inside: Set<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const part = queue.shift() as string;
    for (const next of [...(edges.get(part)?.keys() ?? [])].sort()) {
      if (!inside.has(next)) continue;
      if (next === start) {
        const loop = [start];
        for (let at: string | undefined = part; at !== undefined && at !== start; at = cameFrom.get(at)) loop.splice(1, 0, at);
        return [...loop, start];
      }
      if (!cameFrom.has(next)) {
        cameFrom.set(next, part);
        queue.push(next);
      }
    }
  }
  return [start];
}
