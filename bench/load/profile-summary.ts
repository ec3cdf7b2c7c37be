/**
 * node --import tsx bench/load/profile-summary.ts PROFILE.cpuprofile [--last SECONDS] [--top N]
 *
 * What a CPU profile of the service (bench:load --cpu-prof) says, in a few lines: where the main
 * thread's time went by area (our folders under src/, each package, Node's internals, the
 * WebAssembly of the embedded database, idle and garbage collection), by itself and with what it
 * called, and the busiest functions. `--last` keeps only the final seconds, the measured step,
 * leaving out startup (module loading, index build). Figures are shares of the sampled time.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

const { values, positionals } = parseArgs({ allowPositionals: true, options: { last: { type: 'string' }, top: { type: 'string', default: '30' } } });
const file = positionals[0];
if (!file) {
  process.stderr.write('usage: profile-summary.ts PROFILE.cpuprofile [--last SECONDS] [--top N]\n');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const top = Number(values.top);

const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

/** Our code by folder (two levels under src/), a package by name, else Node's or the VM's own. */
function areaOf({ url, functionName }: ProfileNode['callFrame']): string {
  if (!url) return functionName || '(vm)';
  const pkg = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] as string;
  const ours = /\/(src\/[^/]+(\/[^/]+)?)/.exec(url);
  if (ours) return ours[1] as string;
  if (url.startsWith('node:')) return url.split('/')[0] as string;
  if (url.startsWith('wasm:')) return 'WebAssembly';
  return url.slice(-40);
}

const from = values.last ? profile.endTime - Number(values.last) * 1e6 : -Infinity;
const timeOf = new Map<number, number>();
let clock = profile.startTime;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  clock += delta;
  if (clock >= from) timeOf.set(id, (timeOf.get(id) ?? 0) + delta);
});
const total = [...timeOf.values()].reduce((a, b) => a + b, 0);

const selfByArea = new Map<string, number>();
const inclusiveByArea = new Map<string, number>();
const selfByFunction = new Map<string, number>();
const add = (map: Map<string, number>, key: string, t: number) => map.set(key, (map.get(key) ?? 0) + t);
for (const [id, t] of timeOf) {
  const frame = (byId.get(id) as ProfileNode).callFrame;
  add(selfByArea, areaOf(frame), t);
  add(selfByFunction, `${frame.functionName || '(anonymous)'} ${frame.url.split('/').slice(-2).join('/')}:${frame.lineNumber + 1}`, t);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
    const area = areaOf((byId.get(at) as ProfileNode).callFrame);
    if (!seen.has(area)) add(inclusiveByArea, area, t);
    seen.add(area);
  }
}

const lines = (title: string, map: Map<string, number>) => [
  title,
  ...[...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([key, t]) => `${((100 * t) / total).toFixed(1).padStart(6)}%  ${key}`),
];
console.log(
  [
    `${(total / 1e6).toFixed(1)} s sampled${values.last ? ` (the last ${values.last} s)` : ''}`,
    ...lines('\nby area, itself:', selfByArea),
    ...lines('\nby area, with what it called:', inclusiveByArea),
    ...lines('\nby function, itself:', selfByFunction),
  ].join('\n'),
);
