/**
 * Which Citus releases `gatehouse migrate` accepts (src/db/citus.ts): the extension's version as
 * pg_extension gives it (`13.2-1`). The migrations and the statements were run on 13.2.2; column
 * grants on distributed tables need 13.1.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unsupportedCitus } from '../../src/db/citus.ts';

test('Citus 13.1 to 13.x is accepted', () => {
  for (const version of ['13.1-1', '13.2-1', '13.2', '13.9-2']) assert.equal(unsupportedCitus(version), null, version);
});

test('an older or a newer major release is refused, naming what is supported', () => {
  for (const version of ['13.0-1', '12.1-1', '11.3-2', '14.0-1', 'banana']) {
    assert.match(
      unsupportedCitus(version) ?? '',
      new RegExp(`^Citus ${version.replace('.', '\\.')} is not supported: Gatehouse migrates Citus 13\\.1 or later, below 14\\.0$`),
      version,
    );
  }
});
