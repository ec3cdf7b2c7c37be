/**
 * The streaming body parser gives exactly what JSON.parse gives, however the body is cut into
 * chunks, refuses what JSON.parse refuses, and stops reading past its limit.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { isAppError } from '../../src/http/errors.ts';
import { parseJsonStream } from '../../src/http/json-stream.ts';

/** A body cut into chunks at the given byte lengths (cycled), as a socket might deliver it. */
const chunked = (text: string, sizes: number[]) => {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length] as number;
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return Readable.from(chunks);
};

const code = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'parsed';
  } catch (error) {
    assert.ok(isAppError(error), String(error));
    return error.code;
  }
};

let seed = 7;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)] as T;
function randomValue(depth: number): unknown {
  const kind = depth > 3 ? pick(['s', 'n', 'b']) : pick(['s', 'n', 'b', 'o', 'a', 'null']);
  if (kind === 's') return pick(['', 'plain', 'quote " inside', 'back\\slash', 'brace } and [bracket]', 'comma, colon: ', 'Ünïcødé 名前 🙂', '\n\t']);
  if (kind === 'n') return pick([0, -1, 3.25, 1e21, 42]);
  if (kind === 'b') return random() < 0.5;
  if (kind === 'null') return null;
  if (kind === 'a') return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(depth + 1));
  return Object.fromEntries(Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`k${i}${pick(['', ' "q"', '[', '}'])}`, randomValue(depth + 1)]));
}

test('the same value as JSON.parse, for any body and any chunking, with or without white space', async () => {
  for (let round = 0; round < 300; round++) {
    const body = {
      mode: pick(['upsert', 'full']),
      profiles: Array.from({ length: Math.floor(random() * 6) }, () => randomValue(1)),
      other: randomValue(1),
      numbers: [1, 2.5, -3, true, null, 'x'],
    };
    const text = JSON.stringify(body, null, round % 3 === 0 ? 2 : undefined);
    const sizes = [1 + Math.floor(random() * 7), 1 + Math.floor(random() * 50), 1000];
    assert.deepEqual(await parseJsonStream(chunked(text, sizes), 1 << 20), JSON.parse(text), text);
  }
  assert.deepEqual(await parseJsonStream(chunked('[1, {"a": [2]}]', [3]), 1000), [1, { a: [2] }], 'a top-level array is parsed whole');
  assert.equal(await parseJsonStream(chunked('"x"', [1]), 1000), 'x');
});

test('refuses what JSON.parse refuses', async () => {
  for (const text of [
    '{"p": [1,,2]}',
    '{"p": [,1]}',
    '{"p": [1,]}',
    '{"p": [1 2]}',
    '{"p": [{"a":1}',
    '{"p": "unterminated}',
    '{"a":1}}',
    '',
    '{"p": [tru]}',
  ]) {
    assert.equal(await code(parseJsonStream(chunked(text, [2]), 1000)), 'malformed_json', text);
  }
});

test('stops at its limit with a 413 that names it', async () => {
  const text = JSON.stringify({ profiles: Array.from({ length: 1000 }, (_, i) => ({ name: `Person ${i}` })) });
  assert.equal(await code(parseJsonStream(chunked(text, [100]), 5_000)), 'payload_too_large');
  assert.equal(await code(parseJsonStream(chunked(text, [100]), text.length)), 'parsed');
});
