/**
 * The rules that keep the layers apart, checked on the source so that a change breaking them
 * fails here rather than in review.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { globSync } from 'glob';
import { APP_FEATURES } from '../src/composition.ts';
import { fileCycles, importGraph, importsOf, orderProblems } from './architecture/import-order.ts';
import { LAYERS, partOf } from './architecture/layers.ts';

const sources = globSync('src/**/*.ts').sort();

test('only src/db reaches the owner connection: tenant data is reached through withTenant', () => {
  const ownerModules = ['src/db/connection.ts', 'src/db/pglite-connection.ts', 'src/db/postgres-connection.ts', 'src/db/migrator.ts'];
  const offenders = sources
    .filter((file) => !file.startsWith('src/db/'))
    .flatMap((file) =>
      importsOf(file)
        .filter((target) => ownerModules.includes(target))
        .map((target) => `${file} → ${target}`),
    );
  assert.deepEqual(offenders, []);
});

test('nothing but config.ts reads process.env', () => {
  const offenders = sources.filter((file) => file !== 'src/config.ts' && /process\.env/.test(fs.readFileSync(file, 'utf8')));
  assert.deepEqual(offenders, []);
});

test('parts of src/ follow the declared layers (test/architecture/layers.ts): no import points up or sideways, no cycle', () => {
  assert.deepEqual(orderProblems(importGraph(sources), LAYERS, partOf), []);
});

test('files of src/ import one way: no file reaches itself through its imports, type-only ones included', () => {
  assert.deepEqual(fileCycles(importGraph(sources)), []);
});

test('every declared part of src/ exists: the layers describe the code as it is', () => {
  const parts = new Set(sources.map(partOf));
  assert.deepEqual(
    LAYERS.flat().filter((part) => !parts.has(part)),
    [],
  );
});

test('every feature with routes (an index.ts) is served: src/composition.ts lists it, once, under its folder name', () => {
  const folders = globSync('src/features/*/index.ts')
    .map((file) => file.split('/')[2] as string)
    .sort();
  assert.deepEqual(APP_FEATURES.map((feature) => feature.name).sort(), folders);
});

test('src/screening is pure: it imports nothing of src/ but itself and helpers that do no I/O', () => {
  const helpers = ['src/background-priority.ts', 'src/eastern-date.ts'];
  const offenders = sources
    .filter((file) => file.startsWith('src/screening/'))
    .flatMap((file) =>
      importsOf(file)
        .filter((target) => target.startsWith('src/') && !target.startsWith('src/screening/') && !helpers.includes(target))
        .map((target) => `${file} → ${target}`),
    );
  assert.deepEqual(offenders, []);
});

test('source and test files stay small enough to read in one sitting', () => {
  const long = [...sources, ...globSync('test/**/*.ts').sort()].filter((file) => fs.readFileSync(file, 'utf8').split('\n').length > 400);
  assert.deepEqual(long, []);
});
