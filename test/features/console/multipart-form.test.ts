/**
 * The console's reader of forms that carry a file (multipart/form-data): what a browser's encoder
 * writes reads back field by field, the file as text; a body it cannot read, one of too many parts,
 * or a file that is not UTF-8 is refused as a 400 naming why, never a 500.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readMultipart } from '../../../src/features/console/multipart-form.ts';
import { isAppError } from '../../../src/http/errors.ts';

/** A form encoded as a browser's FormData is, by Node's own encoder. */
async function encoded(fields: [string, string | Blob, string?][]) {
  const data = new FormData();
  for (const [name, value, filename] of fields) value instanceof Blob ? data.append(name, value, filename) : data.append(name, value);
  const request = new Request('http://console.test/', { method: 'POST', body: data });
  return { body: Buffer.from(await request.arrayBuffer()), type: request.headers.get('content-type') as string };
}

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    assert.ok(isAppError(error), String(error));
    return { status: error.status, pointer: error.extras.errors?.[0]?.pointer, detail: error.detail };
  }
  assert.fail('not refused');
};

test('reads the fields and the file a browser sends, the file as its text; a name sent twice keeps its first value', async () => {
  const csv = 'name,reason,severity\r\n"Reyes, Jordan",Barred — “threats”,red\r\n';
  const form = await encoded([
    ['_csrf', 'token-1'],
    ['mode', 'upsert'],
    ['file', new Blob([csv], { type: 'text/csv' }), 'entries.csv'],
    ['mode', 'replace'],
    ['__proto__', 'not a prototype'],
  ]);
  const fields = readMultipart(form.body, form.type);
  assert.deepEqual({ ...fields }, { _csrf: 'token-1', mode: 'upsert', file: csv, ['__proto__']: 'not a prototype' });
  assert.equal(Object.getPrototypeOf(fields), Object.prototype);
});

test('a quoted boundary is read; an empty file is an empty field', async () => {
  const form = await encoded([['file', new Blob([]), '']]);
  const boundary = /boundary=(.+)$/.exec(form.type)?.[1];
  assert.deepEqual(readMultipart(form.body, `multipart/form-data; boundary="${boundary}"`), { file: '' });
});

test('a body it cannot read, or of too many parts, is refused as a 400 saying why', async () => {
  const form = await encoded([['mode', 'upsert']]);
  assert.match(refusal(() => readMultipart(form.body, 'multipart/form-data'))?.detail ?? '', /names no boundary/);
  assert.match(refusal(() => readMultipart(form.body.subarray(0, form.body.length - 10), form.type))?.detail ?? '', /not closed by the boundary/);
  assert.match(refusal(() => readMultipart(Buffer.from(`x${form.body}`), form.type))?.detail ?? '', /does not start with its boundary/);
  const many = await encoded(Array.from({ length: 21 }, (_, i): [string, string] => [`field${i}`, 'x']));
  assert.deepEqual(refusal(() => readMultipart(many.body, many.type))?.status, 400);
});

test('a file that is not UTF-8 is refused, naming the field', async () => {
  const form = await encoded([['file', new Blob([Buffer.from('name\r\nJos\xe9\r\n', 'latin1')]), 'latin1.csv']]);
  assert.deepEqual(refusal(() => readMultipart(form.body, form.type))?.pointer, '/file');
});
