/**
 * canonicalJson's text is what hashes already stored were computed over, so it must stay byte for
 * byte what its first form gave: JSON.stringify of a copy with every object's keys sorted.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson } from '../src/canonical-json.ts';

/** The first form, kept here as the reference. */
function firstForm(value: unknown): string {
  const sortKeys = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v && typeof v === 'object' && !(v instanceof Date)) {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((key) => [key, sortKeys((v as Record<string, unknown>)[key])]),
      );
    }
    return v;
  };
  return JSON.stringify(sortKeys(value));
}

test('sorts keys at every depth and keeps array order', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } }), '{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
});

test("the awkward cases give the first form's text", () => {
  const cases: unknown[] = [
    { 10: 'ten', 2: 'two', b: 1, a: 2, '-1': 'negative', '01': 'padded', 4294967295: 'not an index', 4294967294: 'the last index' },
    { when: new Date('2026-11-23T12:00:00.000Z'), invalid: new Date(Number.NaN), nested: [new Date(0)] },
    { skipped: undefined, fn: () => 1, kept: [undefined, () => 1, Symbol('s')], nan: Number.NaN, inf: -Infinity, zero: -0, big: 1e21, small: 5e-7 },
    { text: 'quote " backslash \\ newline \n U+2028 \u2028 lone \ud800 Arabic عبد CJK 张伟 emoji 😀', 'key "quoted"': true },
    { __proto__: null, b: 1, a: 2 },
    JSON.parse('{"__proto__": {"x": 1}, "a": 0}'),
    [],
    {},
    'plain',
    42,
    null,
    new Date(1_700_000_000_000),
    new Map([['a', 1]]),
    Buffer.from('ab'),
    // A hole, and objects with their own toJSON, which JSON.stringify honours in the first form.
    // biome-ignore lint/suspicious/noSparseArray: the hole is the case under test
    [1, , 3],
    { toJSON: () => ({ replaced: true }), b: 1 },
    { nested: { toJSON: () => 'text instead', a: 1 } },
    Object.assign(new Date(0), { extra: 1 }),
  ];
  cases.forEach((value, i) => assert.equal(canonicalJson(value), firstForm(value), `case ${i}`));
  assert.equal(canonicalJson(undefined), firstForm(undefined));
  assert.throws(() => canonicalJson({ n: 1n }), TypeError);
});

test("random values give the first form's text", () => {
  let seed = 20261123;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const keyPool = ['a', 'b', 'Z', 'ä', '0', '7', '12', '007', 'id', 'entry_id', '', ' ', 'é', '😀'];
  const make = (depth: number): unknown => {
    const kind = Math.floor(random() * (depth > 3 ? 4 : 7));
    if (kind === 0) return Math.round((random() - 0.5) * 1e6) / 100;
    if (kind === 1) return keyPool[Math.floor(random() * keyPool.length)];
    if (kind === 2) return random() < 0.5 ? null : random() < 0.5;
    if (kind === 3) return random() < 0.2 ? undefined : new Date(Math.floor(random() * 2e12));
    if (kind === 4) return Array.from({ length: Math.floor(random() * 4) }, () => make(depth + 1));
    return Object.fromEntries(Array.from({ length: Math.floor(random() * 6) }, () => [keyPool[Math.floor(random() * keyPool.length)], make(depth + 1)]));
  };
  for (let i = 0; i < 2_000; i++) {
    const value = make(0);
    assert.equal(canonicalJson(value), firstForm(value));
  }
});
