/**
 * The layer checker on small made-up graphs, so that the architecture test is known to fail when
 * src/ breaks its order: an upward import, a sideways one, a cycle, a part nobody declared; and
 * the cycle finder between files, which fails on files that import each other within a part.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileCycles, importsOf, orderProblems } from './import-order.ts';

const LAYERS = [['base'], ['left', 'right'], ['top']];
const partOf = (file: string) => file.split('/')[1] as string;
const imports = (...pairs: [string, string][]) => pairs.map(([from, to]) => ({ from, to }));

test('imports that point down, and imports within a part, are in order', () => {
  const graph = imports(
    ['src/top/a.ts', 'src/left/b.ts'],
    ['src/left/b.ts', 'src/base/c.ts'],
    ['src/top/a.ts', 'src/base/c.ts'],
    ['src/base/c.ts', 'src/base/d.ts'],
    ['src/base/d.ts', 'src/base/c.ts'],
  );
  assert.deepEqual(orderProblems(graph, LAYERS, partOf), []);
});

test('an upward import is named, with the file that makes it', () => {
  const graph = imports(['src/base/c.ts', 'src/top/a.ts']);
  assert.deepEqual(orderProblems(graph, LAYERS, partOf), ['src/base/c.ts imports src/top/a.ts: base → top points upward (layer 0 to layer 2)']);
});

test('an import within one layer is refused: parts of a layer do not know each other', () => {
  const graph = imports(['src/left/b.ts', 'src/right/e.ts']);
  assert.deepEqual(orderProblems(graph, LAYERS, partOf), ['src/left/b.ts imports src/right/e.ts: left → right points sideways (both in layer 1)']);
});

test('a cycle is named as the loop of parts, with one import for each step', () => {
  const graph = imports(['src/top/a.ts', 'src/left/b.ts'], ['src/left/b.ts', 'src/base/c.ts'], ['src/base/c.ts', 'src/top/x.ts']);
  const problems = orderProblems(graph, LAYERS, partOf);
  assert.deepEqual(problems, [
    'src/base/c.ts imports src/top/x.ts: base → top points upward (layer 0 to layer 2)',
    'cycle base → top → left → base: src/base/c.ts imports src/top/x.ts; src/top/a.ts imports src/left/b.ts; src/left/b.ts imports src/base/c.ts',
  ]);
});

test('a part in no layer is a problem of its own', () => {
  const graph = imports(['src/stray/f.ts', 'src/base/c.ts']);
  assert.deepEqual(orderProblems(graph, LAYERS, partOf), ['stray is in no layer: declare where it belongs']);
});

test('files that import one way, however many paths join them, have no cycle', () => {
  const graph = imports(['src/a/top.ts', 'src/a/mid.ts'], ['src/a/mid.ts', 'src/a/low.ts'], ['src/a/top.ts', 'src/a/low.ts'], ['src/b/x.ts', 'src/a/low.ts']);
  assert.deepEqual(fileCycles(graph), []);
});

test('two files importing each other are a cycle, named by its imports even within one part', () => {
  const graph = imports(['src/a/tenant.ts', 'src/a/settings.ts'], ['src/a/settings.ts', 'src/a/tenant.ts']);
  assert.deepEqual(fileCycles(graph), ['src/a/settings.ts imports src/a/tenant.ts, which imports src/a/settings.ts']);
});

test('a longer cycle is named from its first file, each step one import, and leaves out the files that only lead into it', () => {
  const graph = imports(
    ['src/a/entry.ts', 'src/a/store.ts'],
    ['src/a/store.ts', 'src/a/staging.ts'],
    ['src/a/staging.ts', 'src/a/rows.ts'],
    ['src/a/rows.ts', 'src/a/store.ts'],
    ['src/a/rows.ts', 'src/a/schema.ts'],
  );
  assert.deepEqual(fileCycles(graph), ['src/a/rows.ts imports src/a/store.ts, which imports src/a/staging.ts, which imports src/a/rows.ts']);
});

test('each separate cycle is named once', () => {
  const graph = imports(
    ['src/a/p.ts', 'src/a/q.ts'],
    ['src/a/q.ts', 'src/a/p.ts'],
    ['src/b/r.ts', 'src/b/s.ts'],
    ['src/b/s.ts', 'src/b/r.ts'],
    ['src/b/r.ts', 'src/a/p.ts'],
  );
  assert.deepEqual(fileCycles(graph).sort(), [
    'src/a/p.ts imports src/a/q.ts, which imports src/a/p.ts',
    'src/b/r.ts imports src/b/s.ts, which imports src/b/r.ts',
  ]);
});

test('imports are read in every form: named, type-only, re-exported, bare and dynamic, over several lines', () => {
  const text = [
    'import { a,',
    "  b } from './a.ts';",
    "import type { T } from '../t.ts';",
    "export { c } from './c.ts';",
    "import './side-effect.ts';",
    "const later = await import('./later.ts');",
    "import fs from 'node:fs';",
  ].join('\n');
  assert.deepEqual(importsOf('src/x/file.ts', text).sort(), ['node:fs', 'src/t.ts', 'src/x/a.ts', 'src/x/c.ts', 'src/x/later.ts', 'src/x/side-effect.ts']);
});
