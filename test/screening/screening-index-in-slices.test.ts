/**
 * The screening index built in slices (what a running service does when a list version lands)
 * answers exactly as the one built at once, on real list data, and lets other callbacks run
 * while it builds.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { before, describe, test } from 'node:test';
import { readListSources } from '../../src/screening/lists/read-list-sources.ts';
import type { SubjectQuery } from '../../src/screening/match-types.ts';
import type { ListEntity } from '../../src/screening/model.ts';
import { buildScreeningIndex } from '../../src/screening/screening-index.ts';
import { buildScreeningIndexInSlices } from '../../src/screening/screening-index-in-slices.ts';
import { listDataDir, skipWithoutListData } from '../helpers/list-data.ts';

/**
 * Queries taken mechanically from the entities: a listed name as written, the same with a letter
 * dropped (typo keys, phonetics), the words reversed, an alias, and an identifier with another name.
 */
function queriesFrom(entities: ListEntity[]): SubjectQuery[] {
  const queries: SubjectQuery[] = [];
  for (let i = 0; i < entities.length; i += 173) {
    const entity = entities[i] as ListEntity;
    const kind = entity.type === 'person' ? 'person' : entity.type === 'vessel' ? 'vessel' : 'organization';
    const name = entity.names[0]?.full ?? '';
    const typo = name.length > 6 ? name.slice(0, 3) + name.slice(4) : name;
    queries.push({ name, kind }, { name: typo, kind: 'any' }, { name: name.split(/\s+/).reverse().join(' '), kind });
    const alias = entity.names[1]?.full;
    if (alias) queries.push({ name: alias, kind: 'any', countries: entity.countries.slice(0, 1) });
    const identifier = entity.identifiers.find((id) => id.value.length >= 6);
    if (identifier) queries.push({ name: 'Someone Else Entirely', kind: 'any', identifiers: [{ type: 'other', value: identifier.value }] });
  }
  return queries;
}

describe('the screening index built in slices', { skip: skipWithoutListData() }, () => {
  let entities: ListEntity[];
  before(async () => {
    const real = (folder: string) => path.join(listDataDir(), folder);
    const lists = await readListSources([real('ofac_sdn_2024-05/sdn.csv'), real('un_sc_2026-02'), real('bis_dpl_2023-11'), real('bis_el_meu_2026-08_as_csl')]);
    entities = lists.flatMap((list) => list.entities);
  });

  test('answers every query exactly as the index built at once', async () => {
    const atOnce = buildScreeningIndex(entities);
    const inSlices = await buildScreeningIndexInSlices(entities, { sliceMs: 1 });
    assert.deepEqual([inSlices.entityCount, inSlices.nameCount], [atOnce.entityCount, atOnce.nameCount]);
    const queries = queriesFrom(entities);
    assert.ok(queries.length > 300, `${queries.length} queries`);
    let matched = 0;
    for (const query of queries) {
      const expected = atOnce.screen(query, { reportFloor: 0.5 });
      matched += expected.length > 0 ? 1 : 0;
      assert.deepEqual(inSlices.screen(query, { reportFloor: 0.5 }), expected, JSON.stringify(query));
    }
    assert.ok(matched > queries.length / 2, `only ${matched} of ${queries.length} queries found anything`);
  });

  test('lets timers and other callbacks run while it builds', async () => {
    let building = true;
    let ranDuringBuild = 0;
    const timer = setInterval(() => {
      if (building) ranDuringBuild += 1;
    }, 1);
    const immediate = new Promise<boolean>((resolve) => setImmediate(() => resolve(building)));
    try {
      await buildScreeningIndexInSlices(entities);
      building = false;
    } finally {
      clearInterval(timer);
    }
    assert.equal(await immediate, true, 'an immediate queued before the build ran before it finished');
    assert.ok(ranDuringBuild > 0, 'a 1 ms interval timer never ran during the build');
  });
});
