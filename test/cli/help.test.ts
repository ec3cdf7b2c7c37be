/**
 * Every subcommand explains itself. The processes run side by side: each one starts Node and the
 * TypeScript loader, which is most of its time.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCliAsync } from '../helpers/server-process.ts';

test('every subcommand has --help', async () => {
  const commands = [
    ['--help'],
    ['serve', '--help'],
    ['migrate', '--help'],
    ['orgs', 'create', '--help'],
    ['keys', 'create', '--help'],
    ['keys', 'revoke', '--help'],
    ['tokens', 'issue', '--help'],
    ['users', 'create', '--help'],
    ['audit', 'verify', '--help'],
  ];
  const results = await Promise.all(commands.map((args) => runCliAsync(args, {})));
  results.forEach((result, i) => {
    const args = (commands[i] as string[]).join(' ');
    assert.equal(result.code, 0, args);
    assert.match(result.stdout, /Usage: gatehouse/, args);
  });
});
