import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';
import { ListFormatError } from '../../src/screening/lists/list-format-error.ts';
import { readListSources } from '../../src/screening/lists/read-list-sources.ts';
import { listDataDir, skipWithoutListData } from '../helpers/list-data.ts';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-lists-'));
after(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** A scratch folder holding the given files (name → content). */
function folderWith(name: string, files: Record<string, string | Buffer>): string {
  const folder = path.join(scratch, name);
  fs.mkdirSync(folder, { recursive: true });
  for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(folder, file), content);
  return folder;
}

const isListFormatError = (pattern: RegExp) => (e: unknown) => e instanceof ListFormatError && pattern.test(e.message);

describe('readListSources on hand-written fixtures', () => {
  test('joins an OFAC folder into one list, fingerprints the files read in path order, and warns about orphans', async () => {
    const [sdn, ...rest] = await readListSources([path.join(fixtures, 'ofac')]);
    assert.equal(rest.length, 0, 'README.md is not a list');
    assert.equal(sdn?.list, 'OFAC_SDN');
    assert.equal(sdn?.format, 'ofac-legacy');
    assert.deepEqual(
      sdn?.files.map((f) => path.basename(f)),
      ['add.csv', 'alt.csv', 'sdn.csv', 'sdn_comments.csv'],
    );
    const hash = createHash('sha256');
    for (const file of sdn?.files ?? []) hash.update(fs.readFileSync(file));
    assert.equal(sdn?.sourceSha256, hash.digest('hex'));
    assert.deepEqual(sdn?.warnings, ['1 entry in add.csv is absent from sdn.csv; their rows were dropped']);
    assert.equal(sdn?.publishedAt, undefined, 'OFAC legacy files state no date');
  });

  test('a file named explicitly is read alone; a folder and a file in it are read once; results in path order', async () => {
    const lists = await readListSources([path.join(fixtures, 'ofac/sdn.csv'), path.join(fixtures, 'bis'), path.join(fixtures, 'bis/dpl.txt')]);
    assert.deepEqual(
      lists.map((l) => [l.list, l.files.length]),
      [
        ['BIS_DPL', 1],
        ['OFAC_SDN', 1],
      ],
    );
  });

  test('refuses an unrecognised file named explicitly, naming it and the known formats', async () => {
    const readme = path.join(fixtures, 'ofac/README.md');
    await assert.rejects(readListSources([readme]), isListFormatError(/README\.md is not a list file.*ofac-legacy, un-sc-xml, bis-dpl/));
    await assert.rejects(readListSources([folderWith('notes', { 'notes.txt': 'hello' })]), isListFormatError(/holds no list file/));
    await assert.rejects(readListSources([path.join(scratch, 'missing.csv')]), isListFormatError(/missing\.csv does not exist/));
  });

  test('refuses OFAC side files without their main file when named', async () => {
    await assert.rejects(readListSources([path.join(fixtures, 'ofac/add.csv')]), isListFormatError(/add\.csv: OFAC side files need their main file/));
  });

  test('a parse failure names the file and returns nothing, even when other sources were fine', async () => {
    const sdn = fs.readFileSync(path.join(fixtures, 'ofac/sdn.csv'), 'latin1');
    const truncated = folderWith('truncated-ofac', { 'sdn.csv': sdn.slice(0, sdn.indexOf('\n') + 40) });
    await assert.rejects(
      readListSources([path.join(fixtures, 'bis'), truncated]),
      isListFormatError(/truncated-ofac\/sdn\.csv: cannot be read as ofac-legacy: .*record 2 has \d+ fields, not 12/),
    );
  });

  test('refuses an XML cut in the middle, naming the file and the line', async () => {
    const xml = fs.readFileSync(path.join(fixtures, 'un/consolidated.xml'), 'utf8');
    const cut = folderWith('cut-xml', { 'consolidated.xml': xml.slice(0, xml.length / 2) });
    await assert.rejects(
      readListSources([cut]),
      isListFormatError(/cut-xml\/consolidated\.xml: cannot be read as un-sc-xml: The XML is malformed or truncated at line \d+/),
    );
  });

  test('a CSL file yields one list per source, all fingerprinted as the one file', async () => {
    const lists = await readListSources([path.join(fixtures, 'csl')]);
    assert.deepEqual(
      lists.map((l) => [l.format, l.list]),
      [
        ['csl-csv', 'BIS_DPL'],
        ['csl-csv', 'BIS_EL'],
        ['csl-csv', 'OFAC_CONS'],
        ['csl-json', 'OFAC_SDN'],
        ['csl-json', 'BIS_EL'],
        ['csl-json', 'OFAC_CONS'],
        ['csl-json', 'XRL'],
      ],
    );
    assert.equal(new Set(lists.filter((l) => l.format === 'csl-csv').map((l) => l.sourceSha256)).size, 1);
  });

  test('refuses a CSL row with too few fields and a CSV cut inside a quoted field', async () => {
    const [header, first] = fs.readFileSync(path.join(fixtures, 'csl/consolidated.csv'), 'utf8').split('\n');
    const short = folderWith('short-csl', { 'consolidated.csv': `${header}\n${first?.split('","').slice(0, 10).join('","')}"\n` });
    await assert.rejects(
      readListSources([short]),
      isListFormatError(/short-csl\/consolidated\.csv: cannot be read as csl-csv: Record 2 has 10 fields, not 29/),
    );
    const cut = folderWith('cut-csl', { 'consolidated.csv': `${header}\n${first?.slice(0, 30)}` });
    await assert.rejects(readListSources([cut]), isListFormatError(/cut-csl\/consolidated\.csv: .*ends inside a quoted field/));
  });

  test('an .ods is recognised, zipped in memory from the UK fixture; a broken one is refused with its name', async () => {
    const content = fs.readFileSync(path.join(fixtures, 'uk/content.xml'));
    const folder = folderWith('uk', {
      'FCDO_SL_Tue_Jan 7 2025.ods': Buffer.from(
        zipSync({ mimetype: [strToU8('application/vnd.oasis.opendocument.spreadsheet'), { level: 0 }], 'content.xml': content }),
      ),
    });
    const [uk] = await readListSources([folder]);
    assert.deepEqual([uk?.list, uk?.entities.length, uk?.publishedAt], ['UK_FCDO', 3, '2025-01-07']);
    const broken = folderWith('broken-uk', { 'list.ods': 'not a zip' });
    await assert.rejects(
      readListSources([broken]),
      isListFormatError(/broken-uk\/list\.ods: cannot be read as uk-fcdo-ods: This is not an OpenDocument spreadsheet/),
    );
  });

  test('a forced format applies to every file and refuses what does not fit', async () => {
    await assert.rejects(
      readListSources([path.join(fixtures, 'bis/dpl.txt')], { format: 'ofac-legacy' }),
      isListFormatError(/dpl\.txt: cannot be read as ofac-legacy/),
    );
    const sdnAsDpl = folderWith('forced', { 'entries.csv': fs.readFileSync(path.join(fixtures, 'ofac/sdn.csv')) });
    await assert.rejects(readListSources([sdnAsDpl]), isListFormatError(/holds no list file/));
    await assert.rejects(readListSources([sdnAsDpl], { format: 'bis-dpl' }), isListFormatError(/entries\.csv: .*not a Denied Persons List/));
    const [sdn] = await readListSources([sdnAsDpl], { format: 'ofac-legacy' });
    assert.equal(sdn?.list, 'OFAC_SDN');
  });

  test('the UK CSV, OFAC Enhanced ZIP and FtM files are found in a folder; a forced format reads a file under any name', async () => {
    const folder = folderWith('new-formats', {
      'UK-Sanctions-List.csv': fs.readFileSync(path.join(fixtures, 'uk/UK-Sanctions-List.csv')),
      'SDN_ENHANCED.ZIP': Buffer.from(zipSync({ 'SDN_ENHANCED.XML': fs.readFileSync(path.join(fixtures, 'ofac-enhanced/SDN_ENHANCED.XML')) })),
      'entities.ftm.json': fs.readFileSync(path.join(fixtures, 'opensanctions/entities.ftm.json')),
    });
    const lists = await readListSources([folder]);
    assert.deepEqual(
      lists.map((l) => [path.basename(l.files[0] as string), l.format, l.list, l.entities.length, l.publishedAt]),
      [
        ['entities.ftm.json', 'opensanctions-ftm', 'OS_UA_WAR_SANCTIONS', 4, undefined],
        ['SDN_ENHANCED.ZIP', 'ofac-enhanced-xml', 'OFAC_SDN', 3, '2025-03-04'],
        ['UK-Sanctions-List.csv', 'uk-fcdo-csv', 'UK_FCDO', 4, '2026-10-08'],
      ],
    );
    const renamed = folderWith('forced-ftm', { 'ua_war_sanctions.txt': fs.readFileSync(path.join(fixtures, 'opensanctions/entities.ftm.json')) });
    const [forced] = await readListSources([path.join(renamed, 'ua_war_sanctions.txt')], { format: 'opensanctions-ftm' });
    assert.equal(forced?.list, 'OS_UA_WAR_SANCTIONS');
    await assert.rejects(
      readListSources([path.join(fixtures, 'bis/dpl.txt')], { format: 'uk-fcdo-csv' }),
      isListFormatError(/dpl\.txt: cannot be read as uk-fcdo-csv: .*lacks the columns Unique ID/),
    );
  });

  test('a file under another name is recognised by its content', async () => {
    const renamed = folderWith('renamed', { 'denied.tsv': fs.readFileSync(path.join(fixtures, 'bis/dpl.txt')) });
    const [dpl] = await readListSources([renamed]);
    assert.deepEqual([dpl?.list, dpl?.entities.length], ['BIS_DPL', 2]);
  });
});

describe('readListSources on the real folders', { skip: skipWithoutListData() }, () => {
  const real = (folder: string) => path.join(listDataDir(), folder);

  test('OFAC SDN 2024-05: sdn.csv alone, the history two levels down left out', async () => {
    const lists = await readListSources([real('ofac_sdn_2024-05')]);
    assert.deepEqual(
      lists.map((l) => [l.list, l.entities.length, l.files.length]),
      [['OFAC_SDN', 14_965, 1]],
    );
  });

  test('OFAC consolidated 2025-12: four files joined, the spec text skipped', async () => {
    const [cons, ...rest] = await readListSources([real('ofac_cons_2025-12')]);
    assert.equal(rest.length, 0);
    assert.equal(cons?.list, 'OFAC_CONS');
    assert.equal(cons?.entities.length, 442);
    assert.deepEqual(
      cons?.files.map((f) => path.basename(f)),
      ['cons_add.csv', 'cons_alt.csv', 'cons_comments.csv', 'cons_prim.csv'],
    );
  });

  test('BIS Denied Persons 2023-11', async () => {
    const [dpl] = await readListSources([real('bis_dpl_2023-11')]);
    assert.equal(dpl?.list, 'BIS_DPL');
    assert.equal(dpl?.entities.length, 545);
  });

  test('UN Security Council 2026-02, with its publication date', async () => {
    const [un] = await readListSources([real('un_sc_2026-02')]);
    assert.deepEqual([un?.list, un?.format, un?.entities.length, un?.publishedAt], ['UN_SC', 'un-sc-xml', 1_003, '2026-02-27']);
  });

  test('BIS Entity List and MEU as CSL', async () => {
    const lists = await readListSources([real('bis_el_meu_2026-08_as_csl')]);
    assert.deepEqual(
      lists.map((l) => [l.list, l.format, l.entities.length]),
      [
        ['BIS_EL', 'csl-csv', 3_354],
        ['BIS_MEU', 'csl-csv', 56],
      ],
    );
  });

  test('UK FCDO 2025-08, dated by the export name', async () => {
    const [uk] = await readListSources([real('uk_fcdo_2025-08')]);
    assert.deepEqual([uk?.list, uk?.format, uk?.entities.length, uk?.publishedAt], ['UK_FCDO', 'uk-fcdo-ods', 5_300, '2025-08-11']);
    assert.equal(uk?.warnings.length, 1);
  });

  test('the whole data folder: every list once, the derived JSON, the XSD, eval sets and side-file-only folders skipped', async () => {
    const lists = await readListSources([listDataDir()]);
    assert.deepEqual(
      lists.map((l) => `${path.basename(path.dirname(l.files[0] as string))} ${l.list} ${l.entities.length}`),
      [
        'bis_dpl_2023-11 BIS_DPL 545',
        'bis_el_meu_2026-08_as_csl BIS_EL 3354',
        'bis_el_meu_2026-08_as_csl BIS_MEU 56',
        'csl_sample_2023 STATE_ISN 1',
        'csl_sample_2023 BIS_UVL 1',
        'csl_sample_2023 BIS_MEU 1',
        'csl_sample_2023 OFAC_CONS 6',
        'csl_sample_2023 OFAC_SDN 1',
        'csl_sample_2023 DDTC_DEBARRED 1',
        'csl_sample_2023 BIS_DPL 1',
        'csl_sample_2023 BIS_EL 1',
        'ofac_cons_2025-12 OFAC_CONS 442',
        'ofac_cons_enhanced_xml_2025-01 OFAC_CONS 443',
        'ofac_sdn_2024-05 OFAC_SDN 14965',
        'opensanctions_ftm_eu_fsf_excerpt_2024-06 EU_FSF 2',
        'opensanctions_ftm_eu_fsf_excerpt_2024-06 EU_FSF 6',
        'uk_fcdo_2025-08 UK_FCDO 5300',
        'un_sc_2026-02 UN_SC 1003',
      ],
    );
  });

  test('side files newer than the main file: the orphans become a warning', async () => {
    const folder = path.join(scratch, 'sdn-with-newer-addresses');
    fs.mkdirSync(folder);
    fs.symlinkSync(real('ofac_sdn_2024-05/sdn.csv'), path.join(folder, 'sdn.csv'));
    fs.symlinkSync(real('ofac_sdn_2025-01/add.csv'), path.join(folder, 'add.csv'));
    const [sdn] = await readListSources([folder]);
    assert.deepEqual(sdn?.warnings, ['2,111 entries in add.csv are absent from sdn.csv; their rows were dropped']);
  });

  test('a folder of OFAC side files without sdn.csv holds no list', async () => {
    await assert.rejects(readListSources([real('ofac_sdn_2025-01')]), isListFormatError(/ofac_sdn_2025-01 holds no list file/));
  });
});
