#!/usr/bin/env node
// Runs every test/**/*.test.ts with node's test runner through tsx. The files are listed here
// rather than passed to `--test` as a glob, so that the count is printed and a run may name a few.
// The backend is chosen by DATABASE_URL: unset runs on the embedded PGlite, set on PostgreSQL.
import { spawnSync } from 'node:child_process';
import { globSync } from 'glob';

const only = process.argv.slice(2);
const files = only.length > 0 ? only : globSync('test/**/*.test.ts').sort();
process.stderr.write(`Running ${files.length} test files on ${process.env.DATABASE_URL ? 'PostgreSQL' : 'the embedded PGlite database'}\n`);
const result = spawnSync(
  process.execPath,
  // A hung test fails after five minutes instead of stalling CI. The limit also bounds each file as a whole, and a file
  // of real processes (the CLI, the server) on a busy 2-core machine can take two minutes: hence five, not two.
  ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=300000', '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
