import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loggerOptions } from '../src/logging.ts';

test('a logged database error keeps what went wrong and drops the statement parameters (names, dates of birth)', () => {
  const options = loggerOptions({ logLevel: 'info' }) as unknown as { serializers: { err: (error: Error) => Record<string, unknown> } };
  const error = Object.assign(new Error('invalid input syntax for type json'), {
    code: '22P02',
    table: 'screenings',
    params: ['org_1', 'scr_1', '{"input":{"subject":"Jane Doe","date_of_birth":"1961-02-12"}}'],
    where: 'JSON data, line 1: {"subject":"Jane Doe"',
    detail: 'Token "Jane" is invalid.',
  });
  const logged = JSON.stringify(options.serializers.err(error));
  assert.match(logged, /22P02/);
  assert.match(logged, /screenings/);
  assert.doesNotMatch(logged, /Jane|1961/);
});
