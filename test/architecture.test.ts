/**
 * The rules that keep the layers apart, checked on the source so that a change breaking them
 * fails here rather than in review.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { globSync } from 'glob';

const sources = globSync('src/**/*.ts').sort();
const importsOf = (file: string) =>
  [...fs.readFileSync(file, 'utf8').matchAll(/^\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) =>
    m[1]?.startsWith('.') ? path.join(path.dirname(file), m[1]) : (m[1] as string),
  );

test('only src/db reaches the owner connection: tenant data is reached through withTenant', () => {
  const ownerModules = ['src/db/connection.ts', 'src/db/pglite-connection.ts', 'src/db/postgres-connection.ts', 'src/db/migrator.ts'];
  const offenders = sources
    .filter((file) => !file.startsWith('src/db/'))
    .flatMap((file) => importsOf(file).filter((target) => ownerModules.includes(target)).map((target) => `${file} → ${target}`));
  assert.deepEqual(offenders, []);
});

test('nothing but config.ts reads process.env', () => {
  const offenders = sources.filter((file) => file !== 'src/config.ts' && /process\.env/.test(fs.readFileSync(file, 'utf8')));
  assert.deepEqual(offenders, []);
});

test('features do not import each other: they talk through services they are given', () => {
  const offenders = sources
    .filter((file) => file.startsWith('src/features/'))
    .flatMap((file) => {
      const own = file.split('/').slice(0, 3).join('/');
      return importsOf(file)
        .filter((target) => target.startsWith('src/features/') && !target.startsWith(`${own}/`))
        .map((target) => `${file} → ${target}`);
    });
  assert.deepEqual(offenders, []);
});

test('source files stay small enough to read in one sitting', () => {
  const long = sources.filter((file) => fs.readFileSync(file, 'utf8').split('\n').length > 400);
  assert.deepEqual(long, []);
});
