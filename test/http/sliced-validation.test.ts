/**
 * Long arrays in a body are validated in slices with turns of the event loop between them, stop
 * collecting after the first hundred failed items, and are refused for their length before any
 * item is read; small bodies are validated at once.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { MAX_FIELD_ERRORS } from '../../src/http/errors.ts';
import { slicedBodyValidator } from '../../src/http/sliced-validation.ts';

const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false });
const Item = {
  type: 'object',
  properties: { id: { type: 'string', minLength: 1 }, type: { anyOf: [{ const: 'person' }, { const: 'entity' }] }, weight: { type: 'number', default: 1 } },
  required: ['id', 'type'],
  additionalProperties: false,
};
const validator = slicedBodyValidator(ajv, {
  type: 'object',
  properties: {
    name: { type: 'string' },
    items: { type: 'array', maxItems: 1_000_000, items: Item },
    tags: { type: 'array', maxItems: 3, uniqueItems: true, items: { type: 'object' } },
  },
  required: ['items'],
  additionalProperties: false,
});
assert.ok(validator);
const validate = validator;
const items = (count: number, bad: (i: number) => boolean = () => false) =>
  Array.from({ length: count }, (_, i) => ({ id: `i${i}`, type: bad(i) ? 'trust' : 'entity' }));

/** Runs validation while a setImmediate loop counts the turns the event loop gave other work before it was done. */
async function withTurnsGiven(run: () => boolean | Promise<boolean>) {
  let running = true;
  let turns = 0;
  const tick = () => {
    if (!running) return;
    turns += 1;
    setImmediate(tick);
  };
  setImmediate(tick);
  const valid = await run();
  running = false;
  return { valid, turns };
}

describe('sliced body validation', () => {
  test('500,000 valid items are checked in slices, other work running between them', async () => {
    const body = { items: items(500_000) };
    const { valid, turns } = await withTurnsGiven(() => validate(body));
    assert.equal(valid, true);
    // Slices are 4 ms and these items take tens of milliseconds on any machine: checked in one piece, no turn is given at all.
    assert.ok(turns >= 3, `${turns} turns given to other work during validation`);
    assert.equal((body.items[5] as { weight?: number }).weight, 1, "items get their schema's defaults, as before");
  });

  test('collecting stops once more items failed than an answer lists', async () => {
    const valid = await validate({ items: items(50_000, (i) => i % 2 === 0) });
    assert.equal(valid, false);
    const failedItems = new Set((validate.errors ?? []).map((e) => e.instancePath.split('/')[2]));
    assert.equal(failedItems.size, MAX_FIELD_ERRORS + 1, 'one more than listed, to know there are more');
    assert.equal(validate.errors?.[0]?.instancePath, '/items/0/type');
    assert.equal(validate.errors?.[0]?.schemaPath.startsWith('#/properties/items/items/properties/type'), true);
  });

  test('an array over its limit is refused for that alone, its items unread', () => {
    const tags = Array.from({ length: 5_000 }, () => 7);
    assert.equal(validate({ items: [], tags }), false);
    assert.deepEqual(
      validate.errors?.map((e) => [e.instancePath, e.keyword]),
      [['/tags', 'maxItems']],
    );
  });

  test("a problem outside the arrays is reported with the items' problems, all at once", () => {
    assert.equal(validate({ name: 7, items: items(2, (i) => i === 1) }), false);
    assert.deepEqual(
      validate.errors?.filter((e) => e.keyword !== 'const').map((e) => e.instancePath),
      ['/name', '/items/1/type'],
    );
  });

  test('a small body is validated at once, not through a promise', () => {
    assert.equal(validate({ items: items(10) }), true);
    assert.equal(validate({ items: items(3, (i) => i === 1) }), false);
    assert.deepEqual(
      validate.errors?.filter((e) => e.keyword !== 'const').map((e) => e.instancePath),
      ['/items/1/type'],
    );
  });

  test('repeats are found by value, whatever the order of an object’s members', () => {
    assert.equal(
      validate({
        items: [],
        tags: [
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ],
      }),
      false,
    );
    assert.deepEqual(
      validate.errors?.map((e) => [e.instancePath, e.keyword, e.message]),
      [['/tags/1', 'uniqueItems', 'repeats item 0; each may be given once']],
    );
  });

  test('a schema without a top-level array is left to Ajv', () => {
    assert.equal(slicedBodyValidator(ajv, { type: 'object', properties: { name: { type: 'string' } } }), undefined);
  });
});
