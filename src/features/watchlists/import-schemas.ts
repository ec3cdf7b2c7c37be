/**
 * The shapes of a watchlist's bulk import (`PUT …/entries`, JSON or CSV) and export: the JSON
 * body is `{"entries": [...]}`, the CSV file has the columns of entry-csv.ts, and an export in
 * either form imports back unchanged.
 */
import { Type } from 'typebox';
import { ProblemSchema } from '../../http/problem.ts';
import { enumOf } from '../../http/text-fields.ts';
import { CSV_COLUMNS } from './entry-csv.ts';
import { ENTRY_EXAMPLE, EntryBody, EXAMPLE_WATCHLIST_ID } from './entry-schemas.ts';

/** The most entries one import holds: a replace must hold the whole watchlist, so this is also the most a watchlist replaced at once may hold. */
export const MAX_IMPORT_ENTRIES = 50_000;
export const IMPORT_BODY_LIMIT_BYTES = 25 * 2 ** 20;
/** How long one import may run: 50,000 new entries are written in one transaction. */
export const IMPORT_RUNNING_MS = 5 * 60_000;
/** The share of a watchlist's entries one `replace` may remove (at least 5, never all) unless `allow_shrink=true`. */
export const IMPORT_SHRINK_LIMIT_PERCENT = 10;

const CSV_EXAMPLE = [
  CSV_COLUMNS.join(','),
  'HR-20931,person,Jordan Example Reyes,Jordan E. Reyes|J. Reyes,1984-06-02,US,national_id:123-45-6789:US,"Employment terminated 2026-11-02; made threats against staff.",red,',
  'V-88,organization,Example Dynamics Trading LLC,,,AE|CN,registration:CN-4403-77812,Vendor under internal investigation (case 2026-114).,orange,2027-06-30T00:00:00Z',
  '',
].join('\r\n');

export const CSV_FORMAT = [
  `A header row names the columns, in any order: \`${CSV_COLUMNS.join(',')}\` (only \`name\`, \`reason\` and \`severity\` are required).`,
  'One entry a row; an empty cell is an absent field. `aliases`, `dates_of_birth`, `countries` and `identifiers` hold their items separated by `|`;',
  'an identifier is `type:value` or `type:value:country` (a value holding a colon is written with a final colon when it has no country: `other:A:1:`).',
  'RFC 4180 quoting (`"…"`, a quote inside doubled), UTF-8, CRLF or LF. A cell the export starts with an apostrophe (before `=`, `+`, `-`, `@` or',
  'an apostrophe, which a spreadsheet would run as a formula) is read without it.',
].join(' ');

export const ImportQuery = Type.Object(
  {
    mode: enumOf(
      ['upsert', 'replace'] as const,
      '`upsert` adds new entries and changes those it matches; `replace` also removes every entry of the watchlist the file does not hold.',
    ),
    allow_shrink: Type.Optional(
      Type.Boolean({
        description:
          '`replace` only: remove the absent entries even when they are more than the shrink limit allows (409 `watchlist_shrink_refused` otherwise). ' +
          'Send it only when that many entries really go, never to get past a refusal you have not looked at. Default false.',
        examples: [true],
      }),
    ),
  },
  { additionalProperties: false },
);

export const ImportJsonBody = Type.Object(
  {
    entries: Type.Array(EntryBody, {
      maxItems: MAX_IMPORT_ENTRIES,
      description: `Up to ${MAX_IMPORT_ENTRIES.toLocaleString('en')} entries, each as \`POST …/entries\` takes it. An \`external_id\` may appear once; so may an entry without one.`,
    }),
  },
  { additionalProperties: false, examples: [{ entries: [ENTRY_EXAMPLE] }] },
);

export const ImportCsvBody = Type.String({ description: `A CSV file. ${CSV_FORMAT}`, examples: [CSV_EXAMPLE] });

const count = (description: string, example: number) => Type.Integer({ minimum: 0, description, examples: [example] });

export const ImportResultSchema = Type.Object(
  {
    object: Type.Literal('watchlist_import'),
    watchlist_id: Type.String({ description: 'The watchlist.', examples: [EXAMPLE_WATCHLIST_ID] }),
    mode: enumOf(['upsert', 'replace'] as const, 'As asked.'),
    version: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description: 'The watchlist version the import made; null when it changed nothing (no version is made then).',
      examples: [8],
    }),
    added: count('Entries added.', 12),
    changed: count('Entries whose facts changed (they keep their ids).', 3),
    removed: count('`replace`: entries of the watchlist the file did not hold.', 2),
    unchanged: count('Entries exactly as stored: not written.', 240),
    entry_count: count('The watchlist’s entries now (removed ones not counted).', 253),
  },
  { description: 'What the import changed.' },
);

const ShrinkCounts = Type.Object({
  live_entries: Type.Integer({ description: 'The watchlist’s entries now (active and expired).', examples: [300] }),
  entries_in_request: Type.Integer({ description: 'The entries the import holds.', examples: [10] }),
  would_remove: Type.Integer({ description: 'The entries absent from the import, which it would have removed.', examples: [290] }),
  removal_limit: Type.Integer({ description: 'The most one `replace` may remove from this watchlist now.', examples: [30] }),
  limit_percent: Type.Integer({ description: 'The share of the entries that limit is made of.', examples: [IMPORT_SHRINK_LIMIT_PERCENT] }),
});

/** The 409 a `replace` answers when it would remove too many entries: problem+json with the counts. */
export const ShrinkRefusedResponse = {
  description:
    'A `replace` would remove more entries than the shrink limit allows; nothing was changed. Problem details with `code` `watchlist_shrink_refused` and the counts.',
  content: { 'application/problem+json': { schema: { allOf: [{ $ref: 'Problem#' }, ShrinkCounts] } } },
};

const ImportProblem = Type.Object(
  {
    ...ProblemSchema.properties,
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          pointer: Type.String({
            description: 'JSON Pointer into the import as JSON: `/entries/4/countries/0` (in a CSV file, entry 4 is the fifth row after the header).',
          }),
          detail: Type.String({ description: 'What is wrong, for a human; in a CSV file it starts with the row and column.' }),
          in: Type.Literal('body'),
          row: Type.Optional(Type.Integer({ minimum: 1, description: 'CSV: the row, as a spreadsheet numbers it (the header is row 1).' })),
          column: Type.Optional(Type.String({ description: 'CSV: the column’s name in the header.' })),
        }),
        { description: 'Every problem found, up to 100 (then `errors_truncated` is true).' },
      ),
    ),
  },
  { additionalProperties: true },
);

/** The 400 of an import: every problem, with its pointer, and in a CSV file its row and column. */
export const ImportRefusedResponse = {
  description:
    'The import has problems; nothing was changed. Problem details with `code` `validation_failed` and every problem in `errors` (the first 100): ' +
    'a JSON Pointer to the field, and for a CSV file the `row` and `column`.',
  content: {
    'application/problem+json': {
      schema: ImportProblem,
      example: {
        type: 'https://gatehouse.dev/problems/validation_failed',
        title: 'The request is not valid',
        status: 400,
        detail:
          'The CSV file has 2 problems: row 3, column severity: must be one of: "red", "orange", "yellow"; row 5, column countries: "QQ" is not an ISO 3166-1 alpha-2 country code. Nothing was changed.',
        code: 'validation_failed',
        request_id: 'req_01jbz4r2c5m7p9r1t3v5x7z9ab',
        errors: [
          {
            pointer: '/entries/1/severity',
            detail: 'row 3, column severity: must be one of: "red", "orange", "yellow"',
            in: 'body',
            row: 3,
            column: 'severity',
          },
          {
            pointer: '/entries/3/countries/0',
            detail: 'row 5, column countries: "QQ" is not an ISO 3166-1 alpha-2 country code',
            in: 'body',
            row: 5,
            column: 'countries',
          },
        ],
      },
    },
  },
};

export const ExportQuery = Type.Object(
  {
    format: Type.Optional(
      enumOf(['csv', 'json'] as const, '`csv` (default, `text/csv`) or `json` (`{"entries": [...]}`, the import’s JSON body): either imports back unchanged.'),
    ),
  },
  { additionalProperties: false },
);
