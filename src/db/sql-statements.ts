/**
 * A migration file's statements, one by one. On Citus a migration is sent a statement at a time
 * (migrator.ts): Citus forwards an ALTER of a distributed or reference table to the workers as
 * the text the client sent, and a worker refuses a text of several commands ("cannot insert
 * multiple commands into a prepared statement"), so a file that alters a placed table in more
 * than one statement would never apply.
 *
 * A statement ends at a semicolon outside a string, a quoted identifier, a dollar-quoted body
 * and a comment, as psql splits a file. Function bodies are dollar-quoted; a body written
 * `BEGIN ATOMIC … END` holds semicolons of its own and is refused rather than cut apart.
 */

const IDENTIFIER_CHAR = /[A-Za-z0-9_$]/;
const DOLLAR_TAG = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/;

/** The statements of `sql`, each without its semicolon; comments kept, empty ones left out. */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let start = 0;
  // The statement's text outside strings and comments, to tell an empty one and to find BEGIN ATOMIC.
  let code = '';
  const end = (at: number) => {
    if (/\bbegin\s+atomic\b/i.test(code)) throw new Error('a migration on Citus cannot hold a BEGIN ATOMIC body: dollar-quote the function body');
    if (code.trim() !== '') statements.push(sql.slice(start, at).trim());
    start = at + 1;
    code = '';
  };
  let i = 0;
  while (i < sql.length) {
    const char = sql[i] as string;
    const next = sql[i + 1];
    const after = i > 0 && IDENTIFIER_CHAR.test(sql[i - 1] as string);
    if (char === '-' && next === '-') {
      const newline = sql.indexOf('\n', i);
      i = newline === -1 ? sql.length : newline;
    } else if (char === '/' && next === '*') {
      i = blockCommentEnd(sql, i);
    } else if (char === "'") {
      // E'…' takes backslash escapes; the E is code already read.
      const escapes = /[eE]/.test(sql[i - 1] ?? '') && !IDENTIFIER_CHAR.test(sql[i - 2] ?? '');
      i = quotedEnd(sql, i, "'", escapes);
      code += ' ';
    } else if (char === '"') {
      i = quotedEnd(sql, i, '"', false);
      code += ' ';
    } else if (char === '$' && !after && DOLLAR_TAG.test(sql.slice(i))) {
      const tag = (sql.slice(i).match(DOLLAR_TAG) as RegExpMatchArray)[0];
      const close = sql.indexOf(tag, i + tag.length);
      i = close === -1 ? sql.length : close + tag.length;
      code += ' ';
    } else if (char === ';') {
      end(i);
      i += 1;
    } else {
      code += char;
      i += 1;
    }
  }
  end(sql.length);
  return statements;
}

/** Where the block comment opening at `at` ends (block comments nest). */
function blockCommentEnd(sql: string, at: number): number {
  let depth = 0;
  let i = at;
  while (i < sql.length) {
    if (sql.startsWith('/*', i)) {
      depth += 1;
      i += 2;
    } else if (sql.startsWith('*/', i)) {
      depth -= 1;
      i += 2;
      if (depth === 0) return i;
    } else i += 1;
  }
  return i;
}

/** Where the quoted text opening at `at` ends: a doubled quote is one quote, and with `escapes` a backslash takes the next character. */
function quotedEnd(sql: string, at: number, quote: string, escapes: boolean): number {
  let i = at + 1;
  while (i < sql.length) {
    if (escapes && sql[i] === '\\') i += 2;
    else if (sql[i] === quote && sql[i + 1] === quote) i += 2;
    else if (sql[i] === quote) return i + 1;
    else i += 1;
  }
  return i;
}
