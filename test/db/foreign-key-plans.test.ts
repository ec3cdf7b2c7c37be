/**
 * Every foreign-key check finds its parent row through the parent's key, even on a new database
 * whose tables have no statistics yet. PostgreSQL checks a reference with
 * `SELECT 1 FROM ONLY parent WHERE key = $1 … FOR KEY SHARE` and, after a few executions, keeps one
 * plan for the session. Planned while the parent table is empty, an index that only starts with
 * `organization_id` costs the same as the key, and a session that took it scanned all of an
 * organization's rows for every check until autovacuum's first ANALYZE (on PGlite, which runs no
 * autovacuum, for good). For `cases`, that was the insert of each new case's history: 0.2 ms a
 * check early in a bench:api run, 2.7 ms ten seconds later. The catalog is walked, so a future
 * table's references are checked without anyone listing them.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openTestDatabase, type TestDatabase } from '../helpers/test-database.ts';

type ForeignKey = { name: string; parent: string; key_index: string; columns: string[] };
type PlanNode = { 'Node Type': string; 'Index Name'?: string; Plans?: PlanNode[]; 'Distributed Query'?: DistributedQuery };
/** Citus's part of a plan: the plan of each shard's query, as the worker that holds the shard plans it. */
type DistributedQuery = { Job: { Tasks: { 'Remote Plan': { Plan: PlanNode }[][] }[] } };

let database: TestDatabase;
before(async () => {
  database = await openTestDatabase();
});
after(async () => {
  await database.close();
});

/**
 * The scans of a plan, as "Index Scan using cases_pkey" or "Seq Scan". On Citus, those of the
 * shards' plans, where the foreign keys are checked, an index named as its table's is named for
 * the shard (`cases_pkey_102297`): the shard's number is left off.
 */
function scans(node: PlanNode, onShard = false): string[] {
  const distributed = node['Distributed Query'];
  if (distributed) return distributed.Job.Tasks.flatMap((task) => task['Remote Plan'].flat().flatMap((remote) => scans(remote.Plan, true)));
  const index = onShard ? node['Index Name']?.replace(/_\d+$/, '') : node['Index Name'];
  const own = node['Node Type'].endsWith('Scan') ? [index ? `${node['Node Type']} using ${index}` : node['Node Type']] : [];
  return [...own, ...(node.Plans ?? []).flatMap((child) => scans(child, onShard))];
}

test('each foreign-key check of an empty, never analyzed table uses the index of the key it refers to', async () => {
  const foreignKeys = await database.owner<ForeignKey>(`
    SELECT c.conname AS name, c.confrelid::regclass::text AS parent, c.conindid::regclass::text AS key_index,
           array_agg(a.attname::text ORDER BY k.ord) AS columns
      FROM pg_constraint c
      CROSS JOIN LATERAL unnest(c.confkey) WITH ORDINALITY AS k(attnum, ord)
      JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum
     WHERE c.contype = 'f' AND c.connamespace = 'public'::regnamespace
     GROUP BY c.conname, c.confrelid, c.conindid
     ORDER BY c.conname`);
  assert.ok(
    foreignKeys.some((fk) => fk.parent === 'cases'),
    'the schema has references to cases',
  );

  const wrong: string[] = [];
  for (const fk of foreignKeys) {
    // The check's own form (ri_triggers.c), with values in place of its parameters: every key column is text.
    const where = fk.columns.map((column, i) => `"${column}" OPERATOR(pg_catalog.=) 'value-${i}'::text`).join(' AND ');
    const [explained] = await database.owner<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (FORMAT JSON) SELECT 1 FROM ONLY ${fk.parent} x WHERE ${where} FOR KEY SHARE OF x`,
    );
    assert.ok(explained, `EXPLAIN answered nothing for ${fk.name}`);
    const used = scans(explained['QUERY PLAN'][0].Plan);
    if (used.join() !== `Index Scan using ${fk.key_index}`) wrong.push(`${fk.name} (${fk.parent}: ${fk.columns.join(', ')}) is checked by ${used.join(', ')}`);
  }
  assert.deepEqual(wrong, []);
});
