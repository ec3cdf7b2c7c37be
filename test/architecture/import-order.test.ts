/**
 * The layer checker on small made-up graphs, so that the architecture test is known to fail when
 * src/ breaks its order: an upward import, a sideways one, a cycle, a part nobody declared.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importsOf, orderProblems } from './import-order.ts';

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
