/**
 * `gatehouse lists import` on the UK Sanctions List CSV, OFAC's Enhanced XML and OpenSanctions
 * FollowTheMoney files, as an operator runs it: real processes, JSON on stdout, a line per list on
 * stderr.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { listDataDir, skipWithoutListData } from '../helpers/list-data.ts';
import { cliTestDatabase, runCli } from '../helpers/server-process.ts';

const FIXTURES = path.resolve('test/fixtures');

const cli = cliTestDatabase('gatehouse-list-formats-');
const imported = (args: string[]) => cli.json(['lists', 'import', ...args]);

describe('gatehouse lists import, the newer formats', () => {
  test('the UK Sanctions List CSV: one entity per Unique ID, dated by its report line, with what was guessed', () => {
    const { out, err } = imported([path.join(FIXTURES, 'uk/UK-Sanctions-List.csv')]);
    const [uk] = out;
    assert.deepEqual([uk.list, uk.status, uk.format, uk.published_on, uk.entity_count], ['UK_FCDO', 'imported', 'uk-fcdo-csv', '2026-10-08', 4]);
    assert.deepEqual(uk.counts_by_type, { person: 2, organization: 1, vessel: 1, aircraft: 0 });
    assert.equal(uk.warnings.length, 2);
    assert.match(err, /^UK_FCDO: imported 4 entities as lv_\w{26} \(4 added, 0 removed, 0 changed\)$/m);
  });

  test('OFAC Enhanced ZIP after the legacy CSV of the same list: the entries keep their ids, so nothing is removed', { skip: skipWithoutListData() }, () => {
    const legacy = imported([path.join(listDataDir(), 'ofac_cons_2025-12')]).out[0];
    assert.deepEqual([legacy.list, legacy.format, legacy.entity_count], ['OFAC_CONS', 'ofac-legacy', 442]);
    const { out, err } = imported([path.join(listDataDir(), 'ofac_cons_enhanced_xml_2025-01/CONS_ENHANCED.ZIP')]);
    const [enhanced] = out;
    assert.deepEqual(
      [enhanced.list, enhanced.format, enhanced.published_on, enhanced.entity_count, enhanced.previous_version_id],
      ['OFAC_CONS', 'ofac-enhanced-xml', '2025-01-10', 443, legacy.version_id],
    );
    assert.equal(enhanced.changes.added, 1, 'the one entry OFAC delisted during 2025');
    assert.equal(enhanced.changes.removed, 0);
    assert.match(err, /^OFAC_CONS: imported 443 entities as lv_\w{26} \(1 added, 0 removed, \d+ changed\)$/m);
  });

  test('OpenSanctions FtM entities: the dataset names the list; a forced format reads any name; a broken line is refused with exit 1', () => {
    const [ftm] = imported([path.join(FIXTURES, 'opensanctions/entities.ftm.json')]).out;
    assert.deepEqual([ftm.list, ftm.format, ftm.entity_count, ftm.published_on], ['OS_UA_WAR_SANCTIONS', 'opensanctions-ftm', 4, null]);
    assert.deepEqual(ftm.counts_by_type, { person: 1, organization: 1, vessel: 1, aircraft: 1 });

    const folder = path.join(cli.scratch, 'eu_fsf');
    fs.mkdirSync(folder);
    fs.copyFileSync(path.join(FIXTURES, 'opensanctions/entities.ftm.json'), path.join(folder, 'export.txt'));
    const [forced] = imported(['--format', 'opensanctions-ftm', path.join(folder, 'export.txt')]).out;
    assert.deepEqual([forced.list, forced.warnings[0]], ['EU_FSF', '3 of 4 entities are not on eu_fsf; they are read into its list all the same']);

    const lines = fs.readFileSync(path.join(FIXTURES, 'opensanctions/entities.ftm.json'), 'utf8').split('\n');
    fs.writeFileSync(path.join(cli.scratch, 'broken.ftm.json'), [lines[0], '{"id": "x",', ...lines.slice(1)].join('\n'));
    const broken = runCli(['lists', 'import', path.join(cli.scratch, 'broken.ftm.json')], cli.env);
    assert.equal(broken.code, 1);
    assert.match(broken.stderr, /broken\.ftm\.json: cannot be read as opensanctions-ftm: Line 2 is not valid JSON/);
  });
});
