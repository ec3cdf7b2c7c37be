/**
 * SQL text assembled by hand (src/db/sql-text.ts): every value written as a literal comes back
 * from the database exactly, with standard_conforming_strings on and off; what cannot come back
 * exactly is refused; and no other source file quotes SQL or sends text by itself.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { globSync } from 'glob';
import { identifier, joined, literal, preparedName, type SqlText, type SqlValue, sqlText, withBoundValue, withLiteralValue } from '../../src/db/sql-text.ts';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(() => database.close());

/** Runs `query` in one session with standard_conforming_strings as given, and answers its rows. */
async function inSession<Row>(query: SqlText, conforming: boolean): Promise<Row[]> {
  return database.connection.withSession(async (session) => {
    await session.exec(`SET standard_conforming_strings = ${conforming ? 'on' : 'off'}`);
    try {
      return await session.query<Row>(query.text);
    } finally {
      await session.exec('RESET standard_conforming_strings');
    }
  });
}

/** The value as the database reads the literal back, as text, under both settings. */
async function readBack(value: SqlValue): Promise<(string | null)[]> {
  const query = sqlText`SELECT (${value})::text AS v`;
  return [(await inSession<{ v: string | null }>(query, true))[0]?.v ?? null, (await inSession<{ v: string | null }>(query, false))[0]?.v ?? null];
}

const TRICKY_STRINGS: Record<string, string> = {
  empty: '',
  'a quote': "O'Brien",
  'doubled quotes': "''",
  'a backslash': 'C:\\Users\\x',
  'a backslash before a quote': "\\'; SELECT 1; --",
  'backslash escapes as text': '\\n\\t\\x41\\u0041\\0',
  'an E-string opener': "E'x'",
  'dollar quotes': '$$ $tag$ $1',
  'a comment opener': '/* -- */',
  'newlines and tabs': 'line one\nline two\r\n\ttabbed',
  'an injection attempt': "x'); DROP TABLE organizations; --",
  'unicode: accents, CJK, right-to-left': 'Müller Łódź 北京 مرحبا שלום',
  'unicode: combining marks and astral characters': 'e\u0301 👩🏽‍🔬 𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'unicode: line and paragraph separators, a byte order mark': '\u2028\u2029\ufeff',
};

describe('string literals', () => {
  for (const [name, value] of Object.entries(TRICKY_STRINGS)) {
    test(`come back exactly, whatever standard_conforming_strings says: ${name}`, async () => {
      assert.deepEqual(await readBack(value), [value, value]);
    });
  }

  test('a very long string of quotes and backslashes comes back exactly', async () => {
    const value = `${"'\\".repeat(200_000)}ü${'x'.repeat(500_000)}`;
    const [row] = await inSession<{ n: number }>(sqlText`SELECT length(${value})::int AS n`, false);
    assert.equal(row?.n, value.length);
    assert.deepEqual(await readBack(value), [value, value]);
  });

  test('NUL, which PostgreSQL text cannot hold, is refused rather than dropped', () => {
    assert.throws(() => literal('before\0after'), /NUL/);
    assert.throws(() => sqlText`SELECT ${'\0'}`, /NUL/);
  });

  test('a lone surrogate, which would reach the database as U+FFFD, is refused; a pair is a character', () => {
    assert.throws(() => literal('x\ud800'), /lone surrogate/);
    assert.throws(() => literal('\udc00'), /lone surrogate/);
    assert.equal(literal('\ud83d\ude00').text, "E'😀'");
  });
});

describe('other literals', () => {
  test('numbers come back as themselves; a negative one cannot turn a minus into a comment', async () => {
    for (const value of [0, 1, -1, 42.5, -0.001, 1e21, 5e-7, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER]) {
      const [conforming] = await readBack(value);
      assert.equal(Number(conforming), value, String(value));
    }
    assert.equal((await inSession<{ v: number }>(sqlText`SELECT 1 -${-1} AS v`, true))[0]?.v, 2, '1 - (-1), not 1 followed by a comment');
    assert.equal(literal(-0).text, '0');
  });

  test('bigints keep every digit', async () => {
    assert.deepEqual(await readBack(123456789012345678901234567890n), ['123456789012345678901234567890', '123456789012345678901234567890']);
    assert.deepEqual(await readBack(-9007199254740993n), ['-9007199254740993', '-9007199254740993']);
  });

  test('NaN and the infinities are refused', () => {
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) assert.throws(() => literal(value), /cannot be/);
  });

  test('booleans and null are keywords', async () => {
    assert.deepEqual(await readBack(true), ['true', 'true']);
    assert.deepEqual(await readBack(false), ['false', 'false']);
    assert.deepEqual(await readBack(null), [null, null]);
  });

  test('arrays, objects and dates are refused: JSON travels as text', () => {
    for (const value of [[1, 2], { a: 1 }, new Date(0), undefined]) assert.throws(() => literal(value as never), /string, number, boolean or null/);
  });

  test('JSON text as a literal is the same JSON in a jsonb column', async () => {
    const value = { name: 'O\'Brien \\ "quoted"', lines: 'a\nb', unicode: '北京 👩🏽‍🔬', nested: [1, -2.5, true, null, { deep: ["'", '\\'] }] };
    const query = withLiteralValue(sqlText`SELECT $1::jsonb AS v`, JSON.stringify(value));
    for (const conforming of [true, false]) {
      const [row] = await inSession<{ v: unknown }>(query, conforming);
      assert.deepEqual(typeof row?.v === 'string' ? JSON.parse(row.v) : row?.v, value);
    }
  });
});

describe('identifiers', () => {
  test('any name comes back as the column it names', async () => {
    for (const name of ['plain', 'MixedCase', 'with space', 'a"quote', "a'quote", 'select', 'ünïcödé', '1starts_with_digit']) {
      const [row] = await inSession<Record<string, number>>(sqlText`SELECT 1 AS ${identifier(name)}`, false);
      assert.deepEqual(Object.keys(row ?? {}), [name]);
    }
  });

  test('an empty name, NUL, and names PostgreSQL would cut at 63 bytes are refused', () => {
    assert.throws(() => identifier(''), /empty/);
    assert.throws(() => identifier('a\0b'), /NUL/);
    assert.equal(identifier('x'.repeat(63)).text, `"${'x'.repeat(63)}"`);
    assert.throws(() => identifier('x'.repeat(64)), /63 bytes/);
    assert.throws(() => identifier('ü'.repeat(32)), /63 bytes/, '64 bytes in UTF-8');
  });

  test("a prepared statement's name is written bare, and only such a name", () => {
    assert.equal(preparedName('gh_x_0123456789abcdef01234567').text, 'gh_x_0123456789abcdef01234567');
    for (const bad of ['', 'Upper', 'has space', 'a*/b', 'x;y', '9lives', 'x'.repeat(64)])
      assert.throws(() => preparedName(bad), /not a prepared statement/, bad);
  });
});

describe('statements', () => {
  test('a value interpolated without a wrapper is a literal, never SQL', async () => {
    const attempt = '1; DROP TABLE organizations; --';
    assert.equal(sqlText`SELECT ${attempt} AS v`.text, "SELECT E'1; DROP TABLE organizations; --' AS v");
    assert.deepEqual(await inSession(sqlText`SELECT ${attempt} AS v`, true), [{ v: attempt }]);
  });

  test('text already made here goes in as it is; joined pieces keep their order', () => {
    const columns = joined([identifier('a'), identifier('b')], ', ');
    assert.equal(sqlText`SELECT ${columns} FROM ${identifier('t')} WHERE x = ${7}`.text, 'SELECT "a", "b" FROM "t" WHERE x = 7');
    assert.equal(joined([sqlText`BEGIN`, sqlText`COMMIT`], '; ').text, 'BEGIN; COMMIT');
  });

  test('a one-parameter statement takes its value as a literal or as a bind parameter, and nothing else takes one', async () => {
    const statement = sqlText`SELECT $1::text AS v`;
    assert.equal(withLiteralValue(statement, "it's").text, "SELECT E'it''s'::text AS v");
    assert.equal(withBoundValue(statement, "it's").compile(database.connection.kysely).sql, 'SELECT $1::text AS v');
    for (const bad of [sqlText`SELECT 1`, sqlText`SELECT $1, $1`, sqlText`SELECT $1, $2`, sqlText`SELECT $2`, sqlText`SELECT $10`]) {
      assert.throws(() => withLiteralValue(bad, 'x'), /one parameter/, bad.text);
    }
  });
});

test('no source file but src/db/sql-text.ts quotes SQL by hand or sends text as SQL', () => {
  const handMade = [/\bsql\.raw\s*\(/, /CompiledQuery\.raw\s*\(/, /\bE'\$\{/, /replaceAll\("'", "''"\)/, /quote_ident\(/];
  const offenders = globSync('src/**/*.ts')
    .filter((file) => file !== 'src/db/sql-text.ts' && !file.startsWith('src/db/migrations/'))
    .flatMap((file) => {
      const source = fs.readFileSync(file, 'utf8');
      return handMade.filter((pattern) => pattern.test(source)).map((pattern) => `${file}: ${pattern}`);
    });
  assert.deepEqual(offenders, []);
});
