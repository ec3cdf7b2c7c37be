/**
 * Monitoring run shapes.
 */
import { Type } from 'typebox';

export const RunIdParams = Type.Object({ id: Type.String({ pattern: '^mon_[0-9a-z]{26}$', description: 'The run id, `mon_…`.' }) });

export const RunsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20 })),
    cursor: Type.Optional(Type.String({ maxLength: 300, description: 'The `next_cursor` of the page before.' })),
  },
  { additionalProperties: false },
);

export const RunSchema = Type.Object({
  id: Type.String(),
  object: Type.Literal('monitoring_run'),
  list: Type.String(),
  list_version_id: Type.String({ description: 'The version whose added and changed entries were screened.' }),
  previous_version_id: Type.String(),
  changed_entries: Type.Integer({
    description: 'Entries the version added or changed (0 for a version that only removed entries: its run re-evaluates determinations only).',
  }),
  status: Type.String({ description: 'queued, running, completed or failed.' }),
  counts: Type.Object({
    subjects: Type.Integer({ description: 'Watched subjects looked at so far.' }),
    screened: Type.Integer({ description: 'Of those, screened (the rest were screened in full after the version landed).' }),
    potential_matches: Type.Integer(),
    cases_opened: Type.Integer(),
    cases_reopened: Type.Integer(),
    graphs_examined: Type.Integer({
      description:
        'Stored ownership determinations (current ones) with a party the version designated, changed or removed, by list entry or by a name screening at your match threshold: each re-evaluated as of the version. Determinations the version did not touch are not looked at.',
    }),
    graphs_changed: Type.Integer({
      description:
        'Of those, the ones whose verdict changed: each stored as a new determination superseding the old one, and announced as `ownership.changed`.',
    }),
  }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'The last error, while the run waits to be tried again.' }),
  created_at: Type.String({ format: 'date-time' }),
  started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

export const RunListSchema = Type.Object({
  object: Type.Literal('list'),
  data: Type.Array(RunSchema),
  has_more: Type.Boolean(),
  next_cursor: Type.Union([Type.String(), Type.Null()]),
});
