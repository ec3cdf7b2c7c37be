/**
 * problem+json for what happens before any route: requests Node's HTTP parser cannot read (an
 * oversized query string, a broken request line or header) over a real socket; bodies declared
 * in a charset other than UTF-8; and `__proto__` members, refused as validation errors that say
 * where, in ordinary and in streamed (workforce) bodies.
 */
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createTenant, type TestTenant } from '../helpers/credentials.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { loadTestLists } from '../helpers/test-lists.ts';

let harness: TestApp;
let org: TestTenant;
let port: number;

before(async () => {
  harness = await buildTestApp();
  org = await createTenant(harness.database.owner, { tier: 'enterprise', admin: true });
  await loadTestLists(harness);
  port = Number(new URL(await harness.app.listen({ host: '127.0.0.1', port: 0 })).port);
});
after(() => harness.close());

/** Sends raw bytes and reads the whole answer (the server closes the connection after it). */
function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), headers: head, body });
    });
  });
}

function assertRawProblem(answer: Awaited<ReturnType<typeof raw>>, status: number, code: string) {
  assert.equal(answer.status, status, answer.headers);
  assert.match(answer.headers, /\r\nContent-Type: application\/problem\+json\r\n/i);
  const problem = JSON.parse(answer.body);
  assert.deepEqual([problem.status, problem.code, problem.type], [status, code, `https://gatehouse.dev/problems/${code}`]);
  assert.match(problem.request_id, /^req_/);
  assert.equal(typeof problem.detail, 'string');
  return problem;
}

describe("the HTTP parser's refusals are problem+json", () => {
  test('an oversized query string answers 431 headers_too_large', async () => {
    const answer = await raw(`GET /api/v1/screenings?q=${'x'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    assert.match(assertRawProblem(answer, 431, 'headers_too_large').detail, /16 KiB/);
  });

  test('a request line that is not HTTP answers 400 bad_request', async () => {
    assertRawProblem(await raw('NOT A REQUEST\r\n\r\n'), 400, 'bad_request');
  });

  test('a header with a forbidden character answers 400 bad_request', async () => {
    assertRawProblem(await raw('GET /api/healthz HTTP/1.1\r\nHost: localhost\r\nX-Bad: a\x01b\r\n\r\n'), 400, 'bad_request');
  });
});

describe('bodies', () => {
  const prescreen = (payload: string, contentType: string) =>
    harness.app.inject({ method: 'POST', url: '/api/v1/prescreen', headers: { ...org.headers, 'content-type': contentType }, payload });

  test('a body declared as UTF-16 or Latin-1 is refused with 415 naming the charset, not misread', async () => {
    for (const charset of ['utf-16', 'ISO-8859-1', 'latin1']) {
      const response = await prescreen(JSON.stringify({ subject: 'Renée Dubois' }), `application/json; charset=${charset}`);
      assert.equal(response.statusCode, 415, charset);
      assert.equal(response.json().code, 'unsupported_media_type');
      assert.match(response.json().detail, new RegExp(`charset=${charset}.*UTF-8`));
    }
  });

  test('UTF-8, however it is written, is accepted', async () => {
    for (const contentType of ['application/json', 'application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'application/json; charset=utf8']) {
      assert.equal((await prescreen(JSON.stringify({ subject: 'Renée Dubois' }), contentType)).statusCode, 201, contentType);
    }
  });

  test('a __proto__ member is a validation error that says so and where, however its name is escaped', async () => {
    for (const text of ['{"subject":"Jane Roe","__proto__":{"admin":true}}', '{"subject":"Jane Roe","\\u005f\\u005fproto\\u005f\\u005f":{"admin":true}}']) {
      const response = await prescreen(text, 'application/json');
      assert.equal(response.statusCode, 400, text);
      const problem = response.json();
      assert.equal(problem.code, 'validation_failed');
      assert.deepEqual(
        problem.errors.map((e: { pointer: string }) => e.pointer),
        ['/__proto__'],
      );
      assert.match(problem.errors[0].detail, /`__proto__` would set an object’s prototype/);
    }
  });

  test('a __proto__ member inside a streamed workforce sync is pointed at the same way', async () => {
    const payload = '{"mode":"upsert","profiles":[{"external_id":"w1","name":"Ann Lee"},{"external_id":"w2","name":"Bo Li","metadata":{"__proto__":{"x":1}}}]}';
    const response = await harness.app.inject({
      method: 'PUT',
      url: '/api/v1/workforce/sync',
      headers: { ...org.headers, 'content-type': 'application/json' },
      payload,
    });
    assert.equal(response.statusCode, 400, response.body);
    assert.deepEqual(
      response.json().errors.map((e: { pointer: string }) => e.pointer),
      ['/profiles/1/metadata/__proto__'],
    );
    const latin = await harness.app.inject({
      method: 'PUT',
      url: '/api/v1/workforce/sync',
      headers: { ...org.headers, 'content-type': 'application/json; charset=latin1' },
      payload: '{"mode":"upsert","profiles":[]}',
    });
    assert.equal(latin.statusCode, 415);
  });
});
